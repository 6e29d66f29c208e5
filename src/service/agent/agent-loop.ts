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
import {
  CallQueue,
  NOT_EXECUTED_FINISHED,
  NOT_EXECUTED_REJECTED,
  NOT_EXECUTED_RUNTIME_ERROR,
  STOPPED_NOT_EXECUTED,
} from './call-queue';
import { interruptedActions, RESTART_INTERRUPTED } from './interrupted-actions';
import type { LlmResponse, LlmRetryInfo } from './llm/llm-types';
import type { AgentLoopDeps } from './loop-config';
import { LoopEvents } from './loop-events';
import type { DockhandEvent, LlmMetrics, NewDockhandEvent } from '../events/model/dockhand-event';
import { callFromV0 } from '../events/model/v0-codec';
import { resumedState, type RequestedState } from './loop-state';
import { queuedCalls } from './model-reply';
import { ModelStep, type ModelOutcome } from './model-step';
import { retryDifferently } from './loop-recovery';
import { nextReplayTurn, replayExhausted, startReplay, type ReplayProgress, type ReplayStep } from './replay';
import { detectStuck, loopDetectionEvent, STUCK_REASON } from './stuck-detector';
import { Risk } from './security/rules-analyzer';
import { type BudgetState, StepBudget } from './step-budget';
import { gateToolCall, type GatedCall } from './tool-call-gate';
import { executeBashTool } from './tools/execute-bash';
import type { ToolContext } from './tools/tool';

export type { AgentLoopConfig, AgentLoopDeps, Recall, StatusUpdate } from './loop-config';
export { NOT_EXECUTED_FINISHED, NOT_EXECUTED_REJECTED, STOPPED_NOT_EXECUTED } from './call-queue';
export { REJECTED_TEXT } from './loop-events';

/**
 * A command the user typed, run in the conversation's shell and recorded as the user's action and its
 * output (whichever agent the conversation runs). Only the shell of `context` is used.
 */
export async function runUserCommand(
  add: (event: NewDockhandEvent) => { id: number },
  context: Pick<ToolContext, 'shell'>,
  command: string,
  isInput: boolean,
): Promise<void> {
  const args = { command, is_input: isInput };
  const event = add({
    ...executeBashTool.toAction(args, ''),
    source: 'user',
    confirmation: 'confirmed',
    securityRisk: Risk.UNKNOWN,
  });
  const observation = await executeBashTool.execute(args, context as ToolContext);
  add({ ...observation, source: 'user', cause: event.id });
}

export const REPLAY_ENDED_BY_REJECTION = 'The replay ended: a recorded action was rejected.';

/**
 * The agent loop of one conversation: asks the model, runs the tools it calls one at a time, and records
 * everything as events. One step runs at a time; user actions change the state between steps.
 */
export class AgentLoop {
  private current: AgentState = 'loading';
  private readonly calls = new CallQueue();
  private readonly budget: StepBudget;
  private readonly model: ModelStep;
  private readonly log: LoopEvents;
  private abort: AbortController | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private recalled = false;
  private replay: ReplayProgress | null = null;

  constructor(private readonly deps: AgentLoopDeps) {
    this.budget = new StepBudget(deps.config);
    this.model = new ModelStep(deps.llm, deps.tools, deps.config);
    this.log = new LoopEvents(deps.conversationId, deps.events, deps.masker);
  }

  get state(): AgentState {
    return this.current;
  }

  /** The model and the budget counted so far: ahead of the saved state, which is saved on state changes. */
  get usage(): { model: string; budget: BudgetState } {
    return { model: this.deps.llm.route.model, budget: this.budget.snapshot() };
  }

  /** Records the system event and enters `running` with the first message, else `awaiting_user_input`. */
  start(initial?: { content: string; imageUrls?: string[] }): void {
    this.setState('loading');
    this.log.add(
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
    this.calls.replace(saved.queue);
    this.recalled = saved.recalled;
    this.model.textTools = saved.textTools;
    this.replay = saved.replay;
    for (const action of interruptedActions(this.log.events())) {
      this.log.add(
        errorObservation(RESTART_INTERRUPTED, {
          cause: action.id,
          ...(action.toolCall ? { toolCall: action.toolCall } : {}),
        }),
      );
    }
    const tool = saved.pending && this.deps.tools.get(saved.pending.call.name);
    if (saved.pending && tool) this.calls.hold({ ...saved.pending, tool });
    else if (saved.pending) this.log.unexecuted(saved.pending, RESTART_INTERRUPTED);
    this.setState(resumedState(saved.state, this.calls.held !== null));
  }

  /** A user message: recorded, then the agent runs (rejecting a pending confirmation first). */
  sendMessage(content: string, imageUrls: string[] = []): void {
    if (this.current === 'awaiting_user_confirmation') this.reject('');
    if (this.current === 'error') this.budget.extend();
    this.log.add(userMessage(content, imageUrls));
    const recall = this.recalled
      ? this.deps.config.recall.knowledge(content, this.log.history())
      : this.deps.config.recall.workspace(content);
    if (recall) this.log.add(recallObservation(recall.content, recall.extras));
    this.recalled = true;
    this.setState('running');
    this.kick();
  }

  /** A user's `change_agent_state`: running, paused, stopped, user_confirmed, user_rejected. */
  async changeState(requested: RequestedState, reason = ''): Promise<void> {
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
    const recovery = retryDifferently(this.deps.events.after(this.deps.conversationId, -1));
    if (!recovery) return false;
    if (recovery.condensation) this.log.append(recovery.condensation);
    this.sendMessage(recovery.note);
    return true;
  }

  /** Stop: aborts the model call, interrupts the running command, answers queued calls; `stopped` at once. */
  async stop(): Promise<void> {
    this.abort?.abort();
    const unanswered = this.calls.drainAll();
    this.setState('stopped');
    await this.deps.interrupt().catch(() => undefined);
    for (const queued of unanswered) this.log.unexecuted(queued, STOPPED_NOT_EXECUTED);
  }

  /** A command the user typed: run in the shell between agent steps and recorded as the user's. */
  runUserCommand(command: string, isInput: boolean): void {
    this.running = this.chain(() =>
      runUserCommand((event) => this.log.add(event), this.deps.toolContext, command, isInput),
    );
  }

  /** Resolves when no step is running (for callers that wait for the agent to settle). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private confirm(): void {
    const pending = this.calls.release();
    if (!pending) return;
    this.setState('user_confirmed');
    this.running = this.chain(async () => {
      await this.execute(pending);
      if (this.current === 'user_confirmed') this.setState('running');
      await this.drive();
    });
  }

  private reject(reason: string): void {
    const pending = this.calls.release();
    if (!pending) return;
    this.setState('user_rejected');
    this.log.rejected(pending, reason, this.metrics());
    for (const queued of this.calls.drain()) this.log.unexecuted(queued, NOT_EXECUTED_REJECTED);
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
      while (this.current === 'running' && !this.calls.held) {
        const queued = this.calls.next();
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
    const history = this.log.history();
    const stuck = detectStuck(this.log.events());
    if (stuck) {
      this.log.add(loopDetectionEvent(stuck));
      return this.fail(STUCK_REASON);
    }
    if (this.replay && this.replayStep(this.log.events())) return;
    this.abort = new AbortController();
    let outcome: ModelOutcome;
    try {
      outcome = await this.model.ask(history, {
        signal: this.abort.signal,
        onRetry: (info) => this.retrying(info),
      });
    } catch (error) {
      if (this.current === 'stopped' || this.current === 'paused') return;
      outcome = this.model.failed(error);
    } finally {
      this.abort = null;
    }
    switch (outcome.kind) {
      case 'condensed':
        if (outcome.summaryCall) this.account(outcome.summaryCall);
        this.log.append(outcome.condensation);
        return; // the next step rebuilds the view
      case 'again':
        return;
      case 'fail':
        return this.fail(outcome.reason, outcome.statusId);
      case 'reply':
        return this.replied(outcome.response);
    }
  }

  /** The model's reply: a message waits for the user; tool calls are queued to run one at a time. */
  private replied(response: LlmResponse): void {
    if (this.current === 'rate_limited') this.setState('running');
    this.budget.countIteration();
    this.account(response);
    if (this.current !== 'running') return; // stopped or paused while the reply streamed
    if (response.toolCalls.length === 0) {
      this.log.add(agentMessage(response.text, this.metrics(response)));
      this.setState('awaiting_user_input');
      return;
    }
    this.calls.replace(queuedCalls(response));
  }

  /** Takes the next recorded step instead of a model call; false once the replay is over and the model is next. */
  private replayStep(history: DockhandEvent[]): boolean {
    const turn = nextReplayTurn(this.replay as ReplayProgress, history, this.deps.tools);
    if (turn.kind === 'message') {
      this.sendMessage(turn.step.content, turn.step.imageUrls);
      if (turn.step.waitForResponse) this.setState('awaiting_user_input');
      return true;
    }
    if (turn.kind === 'call') {
      this.budget.countIteration();
      this.calls.replace([{ call: turn.call, thought: turn.thought, metadata: turn.metadata }]);
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

  private async runQueued(queued: SavedCall): Promise<void> {
    const decision = gateToolCall(queued, this.deps.tools, {
      confirmation: this.deps.config,
      secrets: this.deps.secrets,
    });
    switch (decision.kind) {
      case 'refused':
        return this.log.unexecuted(queued, decision.text);
      case 'finish':
        this.log.action(decision.call, 'confirmed', this.metrics());
        for (const later of this.calls.drain()) this.log.unexecuted(later, NOT_EXECUTED_FINISHED);
        this.setState('finished');
        return;
      case 'confirm':
        this.calls.hold(decision.call);
        this.log.action(decision.call, 'awaiting_confirmation', this.metrics(), decision.rules);
        this.setState('awaiting_user_confirmation');
        return;
      case 'run':
        return this.execute(decision.call);
    }
  }

  /** Records the call as confirmed and runs it; a tool that throws is answered with an `error` observation. */
  private async execute(call: GatedCall): Promise<void> {
    const action = this.log.action(call, 'confirmed', this.metrics());
    const run = call.tool.execute;
    if (!run) return;
    const toolCall = callFromV0({ ...call.metadata });
    try {
      // After a Stop this is the interrupted result (output plus the Stop note), recorded like any other.
      const observation = await run(call.args, this.deps.toolContext);
      this.log.add({ ...observation, source: 'agent', cause: action.id, toolCall });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.log.add(errorObservation(message, { cause: action.id, toolCall }));
    }
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
      this.calls.drain();
      this.current = 'error';
      this.deps.onStatus?.({ type: 'error', id: 'STATUS$ERROR', message: reason });
    }
  }

  private fail(reason: string, statusId = 'STATUS$ERROR'): void {
    for (const queued of this.calls.drain()) this.log.unexecuted(queued, NOT_EXECUTED_RUNTIME_ERROR);
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

  private metrics(response?: LlmResponse): LlmMetrics {
    return this.budget.metrics(this.deps.llm.route.model, response);
  }

  private setState(state: AgentState, reason = ''): void {
    if (state === this.current && state !== 'loading') return;
    this.current = state;
    this.log.add(agentStateChanged(state, reason));
    this.save();
  }

  private save(): void {
    this.deps.saveState?.(
      this.deps.masker.mask({
        state: this.current,
        ...this.budget.snapshot(),
        ...this.calls.snapshot(),
        recalled: this.recalled,
        textTools: this.model.textTools,
        workingDir: this.deps.toolContext.shell.metadata?.working_dir ?? null,
        replay: this.replay,
      }),
    );
  }
}
