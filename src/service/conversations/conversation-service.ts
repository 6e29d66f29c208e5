import { randomUUID } from 'node:crypto';
import type {
  ConversationCreateRequest,
  ConversationInfo,
  UserActionRequest,
} from '../../shared/api/conversations';
import type { AgentLoop, StatusUpdate } from '../agent/agent-loop';
import { errorObservation } from '../agent/agent-events';
import type { ServiceContext } from '../context';
import type { EventLog } from '../events/event-log';
import { httpError } from '../http/errors';
import { encodeCursor, decodeCursor } from '../http/page-cursor';
import { forgetRequestMcpKeys, storeRequestMcpKeys } from '../mcp/request-mcp-keys';
import type { SandboxUsers } from '../sandbox/sandbox-users';
import { DEFAULTS } from '../settings/settings-service';
import { ConversationRuntime } from './conversation-runtime';
import { RUNTIME_STATUS, runtimeStatusOf, statusUpdateOf } from './start-status';
import type { StartStage } from '../../shared/api/start-stage';
import { ChangedFiles } from './changed-files';
import type { WorkspaceAccess } from './workspace-access';
import { IdleStop } from './idle-stop';
import type { ConversationRecord, ConversationStore } from './conversation-store';
import { conversationInfo } from './conversation-info';
import { conversationSandboxUsers } from './conversation-sandbox-users';
import { ConversationStatuses, type StatusPayload } from './conversation-statuses';
import { checkStartable, startingText } from './start-request';
import { newConversationRecord, requestedRepository, type CreateOptions } from './new-conversation';
import { endsTurn, isIdleState } from './agent-activity';

/**
 * The conversations: records, the start/stop lifecycle (STARTING, RUNNING, STOPPED), the concurrency cap,
 * and the user's input to their agents. V0 and V1 routes share it.
 */
export class ConversationService {
  private readonly runtimes = new Map<string, ConversationRuntime>();
  /** Where each conversation's last start is (in memory: a restart stops every conversation). */
  private readonly startStages = new Map<string, StartStage>();
  private readonly statuses = new ConversationStatuses();
  private readonly unsubscribe = new Map<string, () => void>();
  private readonly deleted: ((id: string) => void)[] = [];
  /** Conversations whose title is being generated. */
  private readonly naming = new Set<string>();
  private readonly idleStop: IdleStop;
  /** What each conversation changed in its repository, counted once per agent turn. */
  readonly changedFiles: ChangedFiles;
  /** The conversations' side of their sandboxes: the sandbox layer asks before pausing a busy sandbox. */
  readonly sandboxUsers: SandboxUsers;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly events: EventLog,
    private readonly store: ConversationStore,
    workspaces: WorkspaceAccess,
  ) {
    this.changedFiles = new ChangedFiles((id) => workspaces.open(id), ctx.logger);
    this.idleStop = new IdleStop({
      idleSeconds: ctx.limits.idleSeconds,
      running: () => [...this.runtimes.keys()].filter((id) => this.store.get(id)?.status === 'RUNNING'),
      isIdle: (id) => this.isIdle(id) && this.statuses.listeners(id) === 0,
      stop: (id) => this.stop(id),
    });
    this.sandboxUsers = conversationSandboxUsers({
      onSandbox: (sandboxId) => this.store.bySandbox(sandboxId),
      isIdle: (id) => this.isIdle(id),
      stop: (id) => this.stop(id),
      start: (id) => this.start(id),
      logger: ctx.logger,
    });
  }

  /** After a restart every conversation is STOPPED. */
  init(): void {
    this.store.stopAll(new Date().toISOString());
    this.idleStop.start();
  }

  async close(): Promise<void> {
    this.idleStop.close();
    await Promise.all([...this.runtimes.keys()].map((id) => this.stop(id)));
  }

  // ---- reading ----

  runningCount(): number {
    return this.runtimes.size;
  }

  require(id: string): ConversationRecord {
    const record = this.store.get(id);
    if (!record) throw httpError(404, `Conversation ${id} not found`);
    return record;
  }

  info(record: ConversationRecord): ConversationInfo {
    return conversationInfo(this.ctx, record, {
      // The agent's own state first: it changes even when the disk is too full to record the change.
      agentState: this.runtimes.get(record.id)?.agent?.state ?? record.agentState,
      connections: this.statuses.listeners(record.id),
      subConversationIds: this.store.childrenOf(record.id),
      startStage: this.startStage(record.id),
      changedFiles: this.changedFiles.count(record.id),
    });
  }

  /** The running agent's model and budget so far, or null when no agent runs. */
  liveUsage(id: string): AgentLoop['usage'] | null {
    return this.runtimes.get(id)?.agent?.usage ?? null;
  }

  list(query: {
    page_id?: string | undefined;
    limit: number;
    selected_repository?: string | undefined;
    conversation_trigger?: string | undefined;
    include_sub_conversations: boolean;
  }) {
    const after = query.page_id ? decodeCursor(query.page_id, 2) : null;
    const rows = this.store.page({
      after: after ? { createdAt: after[0] as string, id: after[1] as string } : undefined,
      limit: query.limit + 1,
      selectedRepository: query.selected_repository,
      trigger: query.conversation_trigger,
      includeSubConversations: query.include_sub_conversations,
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      results: page.map((r) => this.info(r)),
      next_page_id: rows.length > query.limit && last ? encodeCursor([last.createdAt, last.id]) : null,
    };
  }

  // ---- lifecycle ----

  /** Runs the synchronous checks, stores the conversation and starts it in the background. */
  async create(
    request: ConversationCreateRequest,
    options: CreateOptions = { version: 'V0' },
  ): Promise<ConversationRecord> {
    await checkStartable(this.ctx, options.llmModel);
    const start = startingText(this.ctx, request, options.llmModel);
    const id = request.conversation_id ?? randomUUID().replaceAll('-', '');
    if (this.store.get(id)) throw httpError(409, `Conversation ${id} already exists`);
    const repository = await requestedRepository(this.ctx, request);
    await this.ctx.sandboxes.ensureAvailable(options.sandboxId ?? null);
    this.makeRoom();
    if (request.mcp_config)
      start.mcp_config = await storeRequestMcpKeys(this.ctx.secrets, id, request.mcp_config);
    if (request.expose_custom_secrets === false) start.expose_custom_secrets = false;
    if (request.network_policy) start.network_policy = request.network_policy;
    const record = newConversationRecord(this.ctx, id, request, options, start, repository);
    this.store.insert(record);
    this.launch(record, true);
    return record;
  }

  /** Starts a STOPPED conversation again (idempotent for STARTING/RUNNING). */
  async start(id: string): Promise<void> {
    const record = this.require(id);
    if (record.status !== 'STOPPED') return;
    await checkStartable(this.ctx);
    await this.ctx.sandboxes.ensureAvailable(record.sandboxId);
    this.makeRoom();
    this.update(id, { status: 'STARTING' });
    this.launch(this.require(id), false);
  }

  /** Stops the agent; the sandbox idles. Answers whether it was running. */
  async stop(id: string): Promise<boolean> {
    const record = this.require(id);
    const runtime = this.runtimes.get(id);
    this.runtimes.delete(id);
    this.unsubscribe.get(id)?.();
    this.unsubscribe.delete(id);
    await runtime?.close();
    const wasRunning = record.status !== 'STOPPED';
    if (wasRunning) this.update(id, { status: 'STOPPED', runtimeStatus: null });
    if (runtime)
      this.publish(id, {
        type: 'info',
        id: RUNTIME_STATUS.stopped,
        message: 'The conversation was stopped.',
      });
    return wasRunning;
  }

  async delete(id: string): Promise<void> {
    const record = this.require(id);
    for (const child of this.store.childrenOf(id)) await this.delete(child);
    await this.stop(id);
    this.events.deleteAll(id);
    await forgetRequestMcpKeys(this.ctx.secrets, id, record.request.mcp_config);
    this.store.delete(id);
    this.startStages.delete(id);
    this.changedFiles.forget(id);
    this.deleted.forEach((listener) => listener(id));
    this.statuses.end(id, 'deleted');
    const shared = record.sandboxId ? this.store.bySandbox(record.sandboxId).length > 0 : true;
    if (record.sandboxId && !shared && this.ctx.sandboxes.find(record.sandboxId)) {
      await this.ctx.sandboxes.delete(record.sandboxId).catch(() => undefined);
    }
  }

  rename(id: string, title: string): void {
    this.require(id);
    const masked = this.ctx.masker.maskText(title);
    this.update(id, { title: masked, titleIsCustom: true });
    this.publish(id, { type: 'info', id: 'CONVERSATION$TITLE', message: id, conversation_title: masked });
  }

  // ---- input ----

  sendMessage(id: string, content: string, imageUrls: string[] = []): void {
    this.runningLoop(id).sendMessage(content, imageUrls);
    this.nameAfter(id, content);
  }

  async userAction(id: string, action: UserActionRequest): Promise<void> {
    // While the start waits for the user's say over the repository's code, confirm/reject answer it.
    const consent = this.runtimes.get(id)?.consent;
    if (consent?.pending && action.action === 'change_agent_state') {
      const state = action.args.agent_state;
      if (state === 'user_confirmed' || state === 'user_rejected')
        return consent.decide(state, action.args.reason ?? '');
    }
    // A message is named after however it arrives: POST /message, POST /events or socket.io.
    if (action.action === 'message')
      return this.sendMessage(id, action.args.content, action.args.image_urls ?? []);
    const loop = this.runningLoop(id);
    if (action.action === 'run')
      return loop.runUserCommand(action.args.command, action.args.is_input ?? false);
    const state = action.args.agent_state;
    if (
      (state === 'user_confirmed' || state === 'user_rejected') &&
      loop.state !== 'awaiting_user_confirmation'
    ) {
      throw httpError(409, 'Agent is not awaiting confirmation');
    }
    await loop.changeState(state, action.args.reason ?? '', action.args.option_id);
  }

  /** Called for every deleted conversation (start tasks and other records that refer to it). */
  onDeleted(listener: (id: string) => void): void {
    this.deleted.push(listener);
  }

  /** Called once when the conversation is deleted, so live streams can end. */
  onEnd(id: string, listener: (reason: 'deleted') => void): () => void {
    return this.statuses.onEnd(id, listener);
  }

  /** Where the conversation's last start got to in this process (null before one began). */
  startStage(id: string): StartStage | null {
    return this.startStages.get(id) ?? null;
  }

  /** Listens to the stages of one conversation's starts, its failure included. */
  onStartStage(id: string, listener: (stage: StartStage) => void): () => void {
    return this.statuses.onStartStage(id, listener);
  }

  /** Listens to status updates of one conversation (runtime status, title, errors). */
  onStatus(id: string, listener: (payload: StatusPayload) => void): () => void {
    return this.statuses.onStatus(id, listener);
  }

  // ---- internals ----

  /**
   * Titles a conversation after its first user message, unless the user named it. One title call at a
   * time: messages that follow while it runs are not the first.
   */
  private nameAfter(id: string, message: string): void {
    const record = this.store.get(id);
    const runtime = this.runtimes.get(id);
    if (
      !record ||
      !runtime ||
      record.titleIsCustom ||
      record.title !== `Conversation ${id.slice(0, 5)}` ||
      this.naming.has(id)
    )
      return;
    this.naming.add(id);
    void runtime
      .title(message)
      .finally(() => this.naming.delete(id))
      .then((title) => {
        const current = this.store.get(id);
        if (!title || !current || current.titleIsCustom) return;
        this.update(id, { title });
        this.publish(id, { type: 'info', id: 'CONVERSATION$TITLE', message: id, conversation_title: title });
      });
  }

  private runningLoop(id: string) {
    const record = this.require(id);
    const agent = this.runtimes.get(id)?.agent;
    if (record.status === 'STOPPED' || !agent) throw httpError(409, `Conversation ${id} is not running`);
    return agent;
  }

  private isIdle(id: string): boolean {
    const runtime = this.runtimes.get(id);
    return !runtime || isIdleState(runtime.agent?.state ?? null);
  }

  /** At the cap, stops the oldest idle running conversation; none idle -> 409. */
  private makeRoom(): void {
    const cap =
      this.ctx.settings.stored()?.max_concurrent_conversations ?? DEFAULTS.max_concurrent_conversations;
    if (this.runtimes.size < cap) return;
    const oldest = [...this.runtimes.keys()]
      .map((id) => this.store.get(id))
      .filter((r): r is ConversationRecord => r !== null && this.isIdle(r.id))
      .sort((a, b) => a.lastUpdatedAt.localeCompare(b.lastUpdatedAt))[0];
    if (!oldest) throw httpError(409, `Too many running conversations (${cap}). Stop one and retry.`);
    this.publish(oldest.id, {
      type: 'error',
      id: 'AGENT_ERROR$TOO_MANY_CONVERSATIONS',
      message:
        'Too many conversations at once. If you are still using this one, try reactivating it by prompting the agent to continue',
    });
    void this.stop(oldest.id);
    this.runtimes.delete(oldest.id);
  }

  private launch(record: ConversationRecord, first: boolean): void {
    const runtime = new ConversationRuntime(this.ctx, this.events, record, {
      stage: (stage) => this.reachStage(record.id, stage),
      status: (update) => this.publish(record.id, update),
      update: (changes) => this.update(record.id, changes),
    });
    this.runtimes.set(record.id, runtime);
    this.unsubscribe.set(
      record.id,
      this.events.subscribe(record.id, (event) => {
        if (event.kind !== 'status') return;
        this.update(record.id, { agentState: event.state });
        // The end of a turn: what the agent changed is counted once, for the lists.
        if (endsTurn(event.state)) this.changedFiles.refresh(record.id);
      }),
    );
    void this.run(runtime, record, first).catch((error: unknown) =>
      this.ctx.logger.error({ conversation_id: record.id, err: error }, 'conversation start not recorded'),
    );
  }

  private async run(runtime: ConversationRuntime, record: ConversationRecord, first: boolean): Promise<void> {
    try {
      await runtime.start();
      if (this.runtimes.get(record.id) !== runtime || !runtime.agent) return;
      this.update(record.id, { status: 'RUNNING' });
      const message = runtime.beginAgent(first);
      if (message) this.nameAfter(record.id, message);
      // The agent thinks while the rest of the workspace comes up; a failure there ends the start too.
      await runtime.workspaceReady();
    } catch (error) {
      if (this.runtimes.get(record.id) !== runtime) return;
      const failure = runtime.failureOf(error);
      const message = this.ctx.masker.maskText(failure.message);
      this.ctx.logger.warn({ conversation_id: record.id, err: message }, 'conversation start failed');
      this.events.add(record.id, errorObservation(message), this.ctx.masker);
      await this.stop(record.id);
      this.reachStage(record.id, { stage: 'failed', failure: { ...failure, message } });
    }
  }

  /** A start's stage: the runtime status and the status update it shows as, and the V1 task's listeners. */
  private reachStage(id: string, stage: StartStage): void {
    this.startStages.set(id, stage);
    this.update(id, { runtimeStatus: runtimeStatusOf(stage) });
    this.publish(id, statusUpdateOf(stage));
    this.statuses.reachStage(id, stage);
  }

  private update(id: string, changes: Partial<ConversationRecord>): void {
    if (!this.store.get(id)) return;
    this.store.update(id, { ...changes, lastUpdatedAt: new Date().toISOString() });
  }

  /** Shows a status in the conversation, as its agent's are (the model gateway's refusals). */
  showStatus(id: string, update: StatusUpdate): void {
    if (this.store.get(id)) this.publish(id, update);
  }

  private publish(id: string, update: StatusUpdate & { conversation_title?: string }): void {
    this.statuses.publish(id, update);
  }
}
