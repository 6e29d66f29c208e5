import { START_STAGES, type StartFailureInfo, type StartStage } from '../../shared/api/start-stage';
import type { StatusUpdate } from '../agent/agent-loop';
import type { SavedAgentState } from '../agent/agent-state-store';
import type { ServiceContext } from '../context';
import type { EventLog } from '../events/event-log';
import type { StartedAgent } from './agent-step';
import type { ConversationAgent } from './conversation-agent';
import type { ConversationRecord } from './conversation-store';
import type { RepositoryConsent } from './repository-code';
import type { StartContext } from './start-context';
import { type Opened, startPlan, type StartResults } from './start-plan';
import { runStart, StageProgress, type StartRun } from './start-runner';
import { noteOf, startFailureOf } from './start-status';

export interface RuntimeHooks {
  /** The start reached a stage. */
  stage(stage: StartStage): void;
  /** A status of the start (a note during a stage) or of the agent. */
  status(update: StatusUpdate): void;
  /** The record changed (sandbox, branch); persisted by the owner. */
  update(changes: Partial<ConversationRecord>): void;
}

/**
 * One started conversation: its sandbox, shell and agent loop. `start()` runs the start plan
 * (`start-plan.ts`) and reports its progress as start stages.
 */
export class ConversationRuntime {
  private started: StartedAgent | null = null;
  private readonly closing = new AbortController();
  /** The agent's state before the service restarted (null for a conversation that never ran). */
  private saved: SavedAgentState | null = null;
  private readonly opened: Opened = {
    workspace: null,
    consent: null,
    broker: Promise.resolve(null),
    mcp: null,
  };
  private readonly progress: StageProgress;
  private run: StartRun<StartResults> | null = null;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly events: EventLog,
    private readonly record: ConversationRecord,
    private readonly hooks: RuntimeHooks,
  ) {
    this.progress = new StageProgress(START_STAGES, (stage) => hooks.stage({ stage }));
  }

  /** The conversation's agent, Dockhand's loop or a coding agent over ACP (null until the start made it). */
  get agent(): ConversationAgent | null {
    return this.started?.agent ?? null;
  }

  /** The user's say over the repository's code while the start waits for it (null before the workspace). */
  get consent(): RepositoryConsent | null {
    return this.opened.consent;
  }

  get sandboxId(): string | null {
    return this.opened.workspace?.target.sandboxId ?? null;
  }

  /** Runs the start plan until the agent may think; the rest goes on (`workspaceReady()`). */
  async start(): Promise<void> {
    this.saved = this.ctx.agentStates.load(this.record.id);
    this.run = runStart(
      startPlan(this.startContext(), this.opened),
      (stage) => this.progress.reach(stage),
      this.closing.signal,
    );
    this.started = await this.run.results.agent;
    this.progress.reach('ready');
  }

  /**
   * The rest of the start, which the agent's commands (not its thinking) need: the shell, an empty
   * workspace's `git init`, the git hooks. Rejects like `start()` when one of them fails.
   */
  async workspaceReady(): Promise<void> {
    await this.run?.commandsReady;
  }

  /** What the user is told of an error that ended the start: the stage it reached, the message, the kind. */
  failureOf(error: unknown): StartFailureInfo {
    return startFailureOf(error, this.progress.current);
  }

  /** Step 11: the agent begins (`StartedAgent.begin`). Returns the message the conversation is named after. */
  beginAgent(first: boolean): string | null {
    return this.started?.begin(first) ?? null;
  }

  /** A title for the conversation from its first message (one model call; a cut message when it fails). */
  async title(message: string): Promise<string | null> {
    return this.started ? this.started.title(message) : null;
  }

  /** Stops the agent and closes the shell; the sandbox stays (it idles and is paused later). */
  async close(): Promise<void> {
    this.closing.abort();
    const agent = this.agent;
    if (agent && !['stopped', 'error', 'finished'].includes(agent.state)) await agent.stop();
    await this.started?.close();
    await agent?.settled();
    const opened = this.opened;
    await opened.mcp?.close();
    opened.mcp = null;
    await (await opened.broker)?.close().catch(() => undefined);
    opened.broker = Promise.resolve(null);
    const workspace = opened.workspace;
    if (!workspace) return;
    await workspace.shell.close().catch(() => undefined);
    // The set-up still running (the shell's start, `git init`, the hooks) ends before the sandbox may be
    // paused: an exec that starts in a container being frozen can hang the engine's hold on it.
    await this.run?.begunCommandsSettled();
    workspace.target.release();
    opened.workspace = null;
  }

  private startContext(): StartContext {
    const { ctx, events, record, hooks } = this;
    return {
      ctx,
      events,
      record,
      signal: this.closing.signal,
      saved: this.saved,
      note: (stage, message) => hooks.status(noteOf(stage, message)),
      status: (update) => hooks.status(update),
      update: (changes) => hooks.update(changes),
      approve: (code) => (this.opened.consent as RepositoryConsent).approve(code),
      appendEvent: (event) => events.append(record.id, event, ctx.masker),
    };
  }
}
