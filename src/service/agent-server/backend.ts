import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import type {
  AgentServerConversationInfo,
  EventsSocketQuery,
  SdkEvent,
  SdkMessage,
} from '../../shared/api/agent-server';
import type { ServiceContext } from '../context';
import { EXECUTION_STATUS } from '../conversations/app-conversations';
import type { ConversationMetricsReader } from '../conversations/conversation-metrics';
import type { ConversationService } from '../conversations/conversation-service';
import type { ConversationRecord, ConversationStore } from '../conversations/conversation-store';
import type { ConversationWorkspace, WorkspaceAccess } from '../conversations/workspace-access';
import type { EventLog } from '../events/event-log';
import { httpError } from '../http/errors';
import { sdkEvents } from './sdk-events';

/** What every sandbox's endpoint reaches: the conversations, their events and workspaces. */
export interface AgentServerDeps {
  ctx: ServiceContext;
  conversations: ConversationService;
  store: ConversationStore;
  events: EventLog;
  workspaces: WorkspaceAccess;
  metrics: ConversationMetricsReader;
}

export type AgentInfo = z.infer<typeof AgentServerConversationInfo>;
type RequestedState = 'running' | 'paused' | 'user_confirmed' | 'user_rejected';

/** The text and images of an SDK message. */
export function messageParts(message: SdkMessage): { text: string; images: string[] } {
  return {
    text: message.content
      .map((part) => (part.type === 'text' ? part.text : ''))
      .filter(Boolean)
      .join('\n'),
    images: message.content.flatMap((part) => (part.type === 'image' ? part.image_urls : [])),
  };
}

/**
 * The conversations of one sandbox as its agent-server endpoint serves them: a conversation of another
 * sandbox is unknown here (404), as it would be on that sandbox's own agent server.
 */
export class SandboxConversations {
  /** The sandbox's working directory, as its workspace reports it (it never changes). */
  private workingDir: Promise<string> | null = null;

  constructor(
    private readonly deps: AgentServerDeps,
    readonly sandboxId: string,
    /** Hands a websocket handshake for `id` to the events socket (the endpoint holds the raw socket). */
    readonly openSocket: (id: string, query: z.infer<typeof EventsSocketQuery>, req: IncomingMessage) => void,
  ) {}

  conversation(id: string): ConversationRecord {
    const record = this.deps.store.get(id);
    if (!record || record.sandboxId !== this.sandboxId) throw httpError(404, `Conversation ${id} not found`);
    return record;
  }

  async info(id: string): Promise<AgentInfo> {
    const record = this.conversation(id);
    const workingDir = await this.sandboxWorkingDir();
    const settings = this.deps.ctx.settings.stored();
    return {
      id: record.id,
      title: record.title,
      execution_status: this.executionStatus(id),
      confirmation_policy: {
        kind: !settings?.confirmation_mode
          ? 'NeverConfirm'
          : settings.security_analyzer
            ? 'ConfirmRisky'
            : 'AlwaysConfirm',
      },
      workspace: { kind: 'LocalWorkspace', working_dir: workingDir },
      created_at: record.createdAt,
      updated_at: record.lastUpdatedAt,
      metrics: this.deps.metrics.of([record])[0] ?? null,
    };
  }

  executionStatus(id: string): AgentInfo['execution_status'] {
    const agentState = this.deps.conversations.info(this.conversation(id)).agent_state;
    return (agentState && EXECUTION_STATUS[agentState]) || 'idle';
  }

  /** The conversation's events in the SDK schema, oldest first. */
  events(id: string): SdkEvent[] {
    this.conversation(id);
    return sdkEvents(id, this.deps.events.events(id, -1));
  }

  /** A user message; the agent acts on it (409 while the conversation is not running). */
  sendMessage(id: string, message: SdkMessage): void {
    this.conversation(id);
    const { text, images } = messageParts(message);
    this.deps.conversations.sendMessage(id, text, images);
  }

  async changeState(id: string, state: RequestedState, reason = ''): Promise<void> {
    this.conversation(id);
    await this.deps.conversations.userAction(id, {
      action: 'change_agent_state',
      args: { agent_state: state, reason },
    });
  }

  /** Starts a stopped conversation, as the agent server has every conversation of its sandbox running. */
  async start(id: string): Promise<void> {
    this.conversation(id);
    await this.deps.conversations.start(id);
  }

  /** The sandbox's workspace, through a conversation that runs in it (409 when none does). */
  async workspace(): Promise<ConversationWorkspace> {
    const running = this.deps.store
      .bySandbox(this.sandboxId)
      .find((id) => this.deps.store.get(id)?.status !== 'STOPPED');
    if (!running) throw httpError(409, `No conversation runs in sandbox ${this.sandboxId}`);
    return this.deps.workspaces.open(running);
  }

  /**
   * The same workspace with the sandbox's whole volume (`/workspace`) as its root: where uploads may go, as
   * the OpenHands UI puts them beside the project (`/workspace/<file name>`).
   */
  async volume(): Promise<ConversationWorkspace> {
    const workspace = await this.workspace();
    const { workspaceDir } = await this.deps.ctx.sandboxes.workspace(this.sandboxId);
    return { ...workspace, workingDir: workspaceDir };
  }

  /** A process sandbox's working directory is a folder of this computer, not `/workspace/project`. */
  private sandboxWorkingDir(): Promise<string> {
    this.workingDir ??= this.deps.ctx.sandboxes.workspace(this.sandboxId).then(
      (workspace) => workspace.workingDir,
      (error: unknown) => {
        this.workingDir = null; // Not RUNNING now: asked again next time.
        throw error;
      },
    );
    return this.workingDir;
  }
}
