import type { NewEvent, V0Event } from '../../shared/api/events';
import type { EventLog } from '../events/event-log';
import type { SecretMasker } from '../events/secret-masker';
import {
  type AgentState,
  agentMessage,
  agentStateChanged,
  errorObservation,
  systemAction,
  userMessage,
  recallObservation,
} from './agent-events';
import type { SavedAgentState, SavedCall } from './agent-state-store';
import type { ConfirmationSettings } from './confirmation-policy';
import { interruptedActions, RESTART_INTERRUPTED } from './interrupted-actions';
import type { LlmClient, LlmResponse, LlmRetryInfo } from './llm/llm-types';
import { buildMessages } from './message-builder';
import { modelFailure, queuedCalls } from './model-reply';
import { GrowingCondensedView } from './condenser/condensed-view';
import { Condenser } from './condenser/condenser';
import { maskOldOutputs } from './condenser/observation-masking';
import { CONTEXT_OVERFLOW_ERROR, OverflowStreak } from './condenser/overflow-streak';
import { tokenEstimate } from './condenser/token-estimate';
import { retryDifferentlyEvents } from './loop-recovery';
import { nextReplayTurn, replayExhausted, startReplay, type ReplayProgress, type ReplayStep } from './replay';
import { detectStuck, loopDetectionEvent, STUCK_REASON } from './stuck-detector';
import { Risk, type SecretContext } from './security/rules-analyzer';
import { StepBudget } from './step-budget';
import { gateToolCall, type GatedCall } from './tool-call-gate';
import { executeBashTool } from './tools/execute-bash';
import type { ToolRegistry } from './tools/registry';
import type { ToolContext } from './tools/tool';

export const NOT_EXECUTED_FINISHED = 'Not executed: the agent finished before this call.';
export const NOT_EXECUTED_REJECTED =
  'Not executed: an earlier action in this response was rejected by the user.';
export const STOPPED_NOT_EXECUTED = 'Stop button pressed. The action has not been executed.';
export const REPLAY_ENDED_BY_REJECTION = 'The replay ended: a recorded action was rejected.';
export const REJECTED_TEXT = 'Action has been rejected by the user! Waiting for further user input.';

/** A status update for clients (not stored): `{status_update, type, id, message}`. */
export interface StatusUpdate {
  type: 'info' | 'error';
  id: string;
  message: string;
  retry_in_s?: number;
}

export interface Recall {
  content: string;
  extras: Record<string, unknown>;
}

export interface AgentLoopConfig extends ConfirmationSettings {
  systemPrompt: string;
  /** What is recalled with user messages: the workspace context with the first, triggered knowledge later. */
  recall: {
    workspace(firstMessage: string): Recall;
    knowledge(message: string, history: V0Event[]): Recall | null;
  };
  maxIterations: number;
  /** USD; null = no budget. */
  maxBudgetPerTask: number | null;
  version: string;
  /** `enable_default_condenser`: summarize with the LLM as well as cut the window on overflow. */
  condenserEnabled: boolean;
  condenserMaxSize: number | null;
  /** The model's context window in tokens. */
  contextWindow: number;
  /** The MCP tools' name map, recorded in the `system` event. */
  mcpTools?: Record<string, { server: string; tool: string }>;
}

export interface AgentLoopDeps {
  conversationId: string;
  events: EventLog;
  masker: SecretMasker;
  llm: LlmClient;
  tools: ToolRegistry;
  toolContext: ToolContext;
  secrets: SecretContext;
  config: AgentLoopConfig;
  /** Interrupts the running shell command (Stop). */
  interrupt(): Promise<unknown>;
  onStatus?(update: StatusUpdate): void;
  /** Keeps what a restarted service needs to go on (called on every state change and step). */
  saveState?(state: SavedAgentState): void;
}

type QueuedCall = SavedCall;

/** How a state saved before a restart comes back: work in flight is paused, not resumed on its own. */
const RESUMED_AS: Partial<Record<AgentState, AgentState>> = {
  loading: 'awaiting_user_input',
  running: 'paused',
  rate_limited: 'paused',
  user_confirmed: 'paused',
  user_rejected: 'awaiting_user_input',
};

/**
 * The agent loop of one conversation: asks the model, runs the tools it calls one at a time, and records
 * everything as events. One step runs at a time; user actions change the state between steps.
 */
export class AgentLoop {
  private current: AgentState = 'loading';
  private queue: QueuedCall[] = [];
  private pending: GatedCall | null = null;
  private readonly budget: StepBudget;
  private abort: AbortController | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private recalled = false;
  private readonly condenser: Condenser;
  private readonly overflows = new OverflowStreak();
  private condensationRequested = false;
  private textTools = false;
  private replay: ReplayProgress | null = null;
  private readonly seen: V0Event[] = [];
  private readonly view = new GrowingCondensedView();

  constructor(private readonly deps: AgentLoopDeps) {
    this.budget = new StepBudget(deps.config);
    this.condenser = new Condenser({ maxSize: deps.config.condenserMaxSize });
  }

  get state(): AgentState {
    return this.current;
  }

  /** Records the system event and enters `running` with the first message, else `awaiting_user_input`. */
  start(initial?: { content: string; imageUrls?: string[] }): void {
    this.setState('loading');
    this.append(
      systemAction(
        this.deps.config.systemPrompt,
        this.deps.tools.definitions(),
        this.deps.config.version,
        this.deps.config.mcpTools,
      ),
    );
    if (initial) this.sendMessage(initial.content, initial.imageUrls);
    else this.setState('awaiting_user_input');
  }

  /**
   * Starts with a recorded trajectory (agent-behaviour §6.7): its first message opens the conversation and
   * its actions take the place of model calls; `followUp` (`initial_user_msg`) is sent once it is over.
   */
  startReplay(steps: ReplayStep[], followUp: ReplayProgress['followUp']): void {
    const { first, progress } = startReplay(steps, followUp);
    this.replay = progress;
    this.start({ content: first.content, imageUrls: first.imageUrls });
  }

  /**
   * Goes on after a service restart from the event log and the saved state: an action that was running gets
   * a result saying so, `running` comes back `paused` and a pending confirmation stays pending.
   */
  resume(saved: SavedAgentState): void {
    this.budget.restore(saved);
    this.queue = saved.queue;
    this.recalled = saved.recalled;
    this.textTools = saved.textTools;
    this.replay = saved.replay;
    for (const action of interruptedActions(this.history())) {
      this.append(
        errorObservation(RESTART_INTERRUPTED, {
          cause: action.id,
          ...(action.tool_call_metadata ? { tool_call_metadata: action.tool_call_metadata } : {}),
        }),
      );
    }
    const tool = saved.pending && this.deps.tools.get(saved.pending.call.name);
    if (saved.pending && tool) this.pending = { ...saved.pending, tool };
    else if (saved.pending) this.answerUnexecuted(saved.pending, RESTART_INTERRUPTED);
    const state = RESUMED_AS[saved.state] ?? saved.state;
    this.setState(state === 'awaiting_user_confirmation' && !this.pending ? 'awaiting_user_input' : state);
  }

  /** A user message: recorded, then the agent runs (rejecting a pending confirmation first). */
  sendMessage(content: string, imageUrls: string[] = []): void {
    if (this.current === 'awaiting_user_confirmation') this.reject('');
    if (this.current === 'error') this.budget.extend();
    this.append(userMessage(content, imageUrls));
    const recall = this.recalled
      ? this.deps.config.recall.knowledge(content, this.history())
      : this.deps.config.recall.workspace(content);
    if (recall) this.append(recallObservation(recall.content, recall.extras));
    this.recalled = true;
    this.setState('running');
    this.kick();
  }

  /** A user's `change_agent_state`: running, paused, stopped, user_confirmed, user_rejected. */
  async changeState(
    requested: 'running' | 'paused' | 'stopped' | 'user_confirmed' | 'user_rejected',
    reason = '',
  ): Promise<void> {
    if (requested === this.current) return;
    switch (requested) {
      case 'paused':
        this.setState('paused');
        return;
      case 'running':
        if (this.current === 'loading') return;
        if (this.current === 'error' && this.retryDifferently()) return;
        this.setState('running');
        this.kick();
        return;
      case 'stopped':
        return this.stop();
      case 'user_confirmed':
        this.confirm();
        return;
      case 'user_rejected':
        this.reject(reason);
        return;
    }
  }

  /** After a loop detection, `running` means "Retry differently": the loop is forgotten and the model told. */
  private retryDifferently(): boolean {
    const recovery = retryDifferentlyEvents(this.deps.events.after(this.deps.conversationId, -1));
    const note = recovery?.pop();
    if (!recovery || !note) return false;
    for (const event of recovery) this.append(event);
    this.sendMessage(String(note.message));
    return true;
  }

  /** Stop: aborts the model call, interrupts the running command, answers queued calls; `stopped` at once. */
  async stop(): Promise<void> {
    this.abort?.abort();
    const unanswered = [...this.queue, ...(this.pending ? [this.pending] : [])];
    this.queue = [];
    this.pending = null;
    this.setState('stopped');
    await this.deps.interrupt().catch(() => undefined);
    for (const queued of unanswered) this.answerUnexecuted(queued, STOPPED_NOT_EXECUTED);
  }

  /** A command the user typed: run in the shell between agent steps and recorded as the user's. */
  runUserCommand(command: string, isInput: boolean): void {
    this.running = this.chain(async () => {
      const args = { command, is_input: isInput };
      const action = executeBashTool.toAction(args, '');
      const event = this.append({
        source: 'user',
        message: action.message,
        action: action.action,
        args: { ...action.args, confirmation_state: 'confirmed', security_risk: Risk.UNKNOWN },
      });
      const observation = await executeBashTool.execute(args, this.deps.toolContext);
      this.append({ source: 'user', ...observation, cause: event.id });
    });
  }

  /** Resolves when no step is running (for callers that wait for the agent to settle). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private confirm(): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    this.setState('user_confirmed');
    this.running = this.chain(async () => {
      await this.execute(pending, 'confirmed');
      if (this.current === 'user_confirmed') this.setState('running');
      await this.drive();
    });
  }

  private reject(reason: string): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    this.setState('user_rejected');
    const action = this.appendAction(pending, 'rejected');
    const content = reason ? `${REJECTED_TEXT}\nReason: ${reason}` : REJECTED_TEXT;
    this.append({
      source: 'agent',
      message: content,
      observation: 'user_rejected',
      content,
      extras: {},
      cause: action.id,
      tool_call_metadata: pending.metadata,
    });
    for (const queued of this.queue) this.answerUnexecuted(queued, NOT_EXECUTED_REJECTED);
    this.queue = [];
    if (this.replay) {
      // The user refused the recorded path: what follows is up to them and the model, not the recording.
      this.replay = null;
      this.deps.onStatus?.({ type: 'info', id: 'STATUS$REPLAY', message: REPLAY_ENDED_BY_REJECTION });
    }
    this.setState('awaiting_user_input');
  }

  private kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.chain(() => this.drive());
  }

  private chain(work: () => Promise<void>): Promise<void> {
    const previous = this.running ?? Promise.resolve();
    const next = previous
      .then(work)
      .catch((error: unknown) => this.failStep(error))
      .finally(() => {
        if (this.running === next) this.running = null;
      });
    return next;
  }

  private async drive(): Promise<void> {
    do {
      this.again = false;
      while (this.current === 'running' && !this.pending) {
        const queued = this.queue.shift();
        if (queued) {
          this.save(); // before the call runs, so that a restart never runs it twice
          await this.runQueued(queued);
        } else await this.askModel();
      }
      const resting = this.current === 'finished' || this.current === 'awaiting_user_input';
      if (this.replay && replayExhausted(this.replay) && resting) this.endReplay();
    } while (this.again && this.current === 'running');
  }

  private async askModel(): Promise<void> {
    const limit = this.budget.limitReached();
    if (limit) return this.fail(limit);
    const history = this.history();
    const stuck = detectStuck(history);
    if (stuck) {
      this.append(loopDetectionEvent(stuck));
      return this.fail(STUCK_REASON);
    }
    if (this.replay && this.replayStep(history)) return;
    this.abort = new AbortController();
    let response: LlmResponse;
    try {
      const view = this.view.of(history);
      const messages = buildMessages(maskOldOutputs(view), this.deps.llm.route.model);
      const tools = this.deps.tools.definitions();
      const system = this.deps.config.systemPrompt;
      const condensed = await this.condenser.maybeCondense({
        view,
        contextWindow: this.deps.config.contextWindow,
        enabled: this.deps.config.condenserEnabled,
        llm: this.deps.llm,
        signal: this.abort.signal,
        requested: this.condensationRequested,
        estimatedPromptTokens: tokenEstimate(this.deps.llm.route, { system, messages, tools }),
        onRetry: (info) => this.retrying(info),
      });
      this.condensationRequested = false;
      if (condensed) {
        if (condensed.summaryCall) this.account(condensed.summaryCall);
        this.append(condensed.condensation);
        return; // the next step rebuilds the view
      }
      response = await this.deps.llm.complete({
        system,
        messages,
        tools,
        ...(this.textTools ? { toolFormat: 'text' as const } : {}),
        signal: this.abort.signal,
        onRetry: (info) => this.retrying(info),
      });
      this.overflows.fitted();
    } catch (error) {
      if (this.current === 'stopped' || this.current === 'paused') return;
      const failure = modelFailure(error, this.textTools);
      switch (failure?.kind) {
        case 'text_tools':
          this.textTools = true;
          return;
        case 'overflow':
          if (this.overflows.overflowed()) return this.fail(CONTEXT_OVERFLOW_ERROR);
          this.condensationRequested = true;
          return;
        case 'fail':
          return this.fail(failure.reason, failure.statusId);
        default:
          throw error;
      }
    } finally {
      this.abort = null;
    }
    if (this.current === 'rate_limited') this.setState('running');
    this.budget.countIteration();
    this.account(response);
    if (this.current !== 'running') return; // stopped or paused while the reply streamed
    if (response.toolCalls.length === 0) {
      this.append(agentMessage(response.text, { llm_metrics: this.metrics(response) }));
      this.setState('awaiting_user_input');
      return;
    }
    this.queue = queuedCalls(response);
  }

  /** Takes the next recorded step instead of a model call; false once the replay is over and the model is next. */
  private replayStep(history: V0Event[]): boolean {
    const turn = nextReplayTurn(this.replay as ReplayProgress, history, this.deps.tools);
    if (turn.kind === 'message') {
      this.sendMessage(turn.step.content, turn.step.imageUrls);
      if (turn.step.waitForResponse) this.setState('awaiting_user_input');
      return true;
    }
    if (turn.kind === 'call') {
      this.budget.countIteration();
      this.queue = [{ call: turn.call, thought: turn.thought, metadata: turn.metadata }];
      return true;
    }
    if (turn.warning) this.deps.onStatus?.({ type: 'error', id: 'STATUS$REPLAY', message: turn.warning });
    return this.endReplay();
  }

  /** The replay is over: `initial_user_msg` follows it. True when one was sent. */
  private endReplay(): boolean {
    const followUp = this.replay?.followUp;
    this.replay = null;
    if (!followUp) return false;
    this.sendMessage(followUp.content, followUp.imageUrls);
    return true;
  }

  private async runQueued(queued: QueuedCall): Promise<void> {
    const decision = gateToolCall(queued, this.deps.tools, {
      confirmation: this.deps.config,
      secrets: this.deps.secrets,
    });
    switch (decision.kind) {
      case 'refused':
        return this.answerUnexecuted(queued, decision.text);
      case 'finish':
        this.appendAction(decision.call, 'confirmed');
        for (const later of this.queue) this.answerUnexecuted(later, NOT_EXECUTED_FINISHED);
        this.queue = [];
        this.setState('finished');
        return;
      case 'confirm':
        this.pending = decision.call;
        this.appendAction(decision.call, 'awaiting_confirmation', decision.rules);
        this.setState('awaiting_user_confirmation');
        return;
      case 'run':
        return this.execute(decision.call, 'confirmed');
    }
  }

  private async execute(call: GatedCall, confirmation: 'confirmed'): Promise<void> {
    const action = this.appendAction(call, confirmation);
    const run = call.tool.execute;
    if (!run) return;
    try {
      // After a Stop this is the interrupted result (output plus the Stop note), recorded like any other.
      const observation = await run(call.args, this.deps.toolContext);
      this.append({ source: 'agent', ...observation, cause: action.id, tool_call_metadata: call.metadata });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.append(errorObservation(message, { cause: action.id, tool_call_metadata: call.metadata }));
    }
  }

  private appendAction(call: GatedCall, confirmation: string, rules: string[] = []): V0Event {
    const action = call.tool.toAction(call.args, call.thought);
    return this.append({
      source: 'agent',
      message: action.message,
      action: action.action,
      args: {
        ...action.args,
        confirmation_state: confirmation,
        security_risk: call.risk,
        ...(rules.length ? { security_rules: rules } : {}),
      },
      tool_call_metadata: call.metadata,
      llm_metrics: this.metrics(),
    });
  }

  /** An `error` observation answering a call that did not run, so the model sees every call answered. */
  private answerUnexecuted(queued: QueuedCall, text: string): void {
    this.append(errorObservation(text, { tool_call_metadata: queued.metadata }));
  }

  private retrying(info: LlmRetryInfo): void {
    if (info.agentState === 'rate_limited' && this.current === 'running') this.setState('rate_limited');
    this.deps.onStatus?.({
      type: 'info',
      id: info.statusId,
      message: info.message,
      retry_in_s: info.retryInS,
    });
  }

  /**
   * Enters `error` after a step threw. When even that cannot be stored (e.g. a full disk), the state still
   * changes in memory and the status says why, so the loop never leaves a rejection unhandled.
   */
  private failStep(error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    try {
      this.fail(reason);
    } catch {
      this.queue = [];
      this.current = 'error';
      this.deps.onStatus?.({ type: 'error', id: 'STATUS$ERROR', message: reason });
    }
  }

  private fail(reason: string, statusId = 'STATUS$ERROR'): void {
    for (const queued of this.queue) {
      this.answerUnexecuted(
        queued,
        'The action has not been executed due to a runtime error; the sandbox state may have been lost.',
      );
    }
    this.queue = [];
    this.setState('error', reason);
    this.deps.onStatus?.({ type: 'error', id: statusId, message: reason });
  }

  private account(response: LlmResponse): void {
    if (!this.budget.account(response)) return;
    this.deps.onStatus?.({
      type: 'info',
      id: 'STATUS$BUDGET_NOT_ENFORCED',
      message: `Budget not enforced: no price known for ${this.deps.llm.route.model}`,
    });
  }

  private metrics(response?: LlmResponse): Record<string, unknown> {
    return this.budget.metrics(this.deps.llm.route.model, response);
  }

  /**
   * The conversation's events: read from the log once, then only the new ones (the log is append-only).
   * The loop's own events are kept as it appends them, so the log is read only for events others added.
   */
  private history(): V0Event[] {
    const last = this.seen.at(-1)?.id ?? -1;
    if (this.deps.events.lastId(this.deps.conversationId) === last) return this.seen;
    for (const event of this.deps.events.after(this.deps.conversationId, last)) this.seen.push(event);
    return this.seen;
  }

  private setState(state: AgentState, reason = ''): void {
    if (state === this.current && state !== 'loading') return;
    this.current = state;
    this.append(agentStateChanged(state, reason));
    this.save();
  }

  private save(): void {
    if (!this.deps.saveState) return;
    const pending = this.pending;
    this.deps.saveState(
      this.deps.masker.mask({
        state: this.current,
        ...this.budget.snapshot(),
        queue: this.queue,
        pending: pending
          ? {
              call: pending.call,
              thought: pending.thought,
              metadata: pending.metadata,
              args: pending.args,
              risk: pending.risk,
            }
          : null,
        recalled: this.recalled,
        textTools: this.textTools,
        workingDir: this.deps.toolContext.shell.metadata?.working_dir ?? null,
        replay: this.replay,
      }),
    );
  }

  private append(event: NewEvent): V0Event {
    const stored = this.deps.events.append(this.deps.conversationId, event, this.deps.masker);
    // Ids are gap-free: the next id means nothing was appended by others since the last event seen.
    if (stored.id === (this.seen.at(-1)?.id ?? -1) + 1) this.seen.push(stored);
    return stored;
  }
}
