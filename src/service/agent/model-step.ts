import type { V0Event } from '../../shared/api/events';
import { GrowingCondensedView } from './condenser/condensed-view';
import { Condenser, type CondenserOutcome } from './condenser/condenser';
import { maskOldOutputs } from './condenser/observation-masking';
import { CONTEXT_OVERFLOW_ERROR, OverflowStreak } from './condenser/overflow-streak';
import { tokenEstimate } from './condenser/token-estimate';
import type { LlmClient, LlmRequest, LlmResponse } from './llm/llm-types';
import type { AgentLoopConfig } from './loop-config';
import { buildMessages } from './message-builder';
import { modelFailure } from './model-reply';
import type { ToolRegistry } from './tools/registry';

/**
 * What one step's model call came to: the model's `reply`; a condensation to record instead (the next step
 * asks with the condensed view); `again` (nothing to record: the next step asks in the text tool format, or
 * condenses first after an overflow); or `fail` (the agent enters `error` with this reason and status).
 */
export type ModelOutcome =
  | { kind: 'reply'; response: LlmResponse }
  | ({ kind: 'condensed' } & CondenserOutcome)
  | { kind: 'again' }
  | { kind: 'fail'; reason: string; statusId: string | undefined };

type ModelSettings = Pick<
  AgentLoopConfig,
  'systemPrompt' | 'condenserEnabled' | 'condenserMaxSize' | 'contextWindow'
>;

/**
 * The model call of an agent step: the view of the history the model sees (condensed, old outputs
 * masked), the condenser run before the call, and what a failed call means for the next step.
 */
export class ModelStep {
  /** Whether the tools go to the model in the text format (after it refused native tool calls); saved. */
  textTools = false;
  private readonly condenser: Condenser;
  private readonly overflows = new OverflowStreak();
  private condensationRequested = false;
  private readonly view = new GrowingCondensedView();

  constructor(
    private readonly llm: LlmClient,
    private readonly tools: ToolRegistry,
    private readonly settings: ModelSettings,
  ) {
    this.condenser = new Condenser({ maxSize: settings.condenserMaxSize });
  }

  /** Condenses the history if it is due, else asks the model. Throws what the call threw. */
  async ask(
    history: V0Event[],
    call: { signal: AbortSignal; onRetry: NonNullable<LlmRequest['onRetry']> },
  ): Promise<ModelOutcome> {
    const view = this.view.of(history);
    const messages = buildMessages(maskOldOutputs(view), this.llm.route.model);
    const tools = this.tools.definitions();
    const system = this.settings.systemPrompt;
    const condensed = await this.condenser.maybeCondense({
      view,
      contextWindow: this.settings.contextWindow,
      enabled: this.settings.condenserEnabled,
      llm: this.llm,
      signal: call.signal,
      requested: this.condensationRequested,
      estimatedPromptTokens: tokenEstimate(this.llm.route, { system, messages, tools }),
      onRetry: call.onRetry,
    });
    this.condensationRequested = false;
    if (condensed) return { kind: 'condensed', ...condensed };
    const response = await this.llm.complete({
      system,
      messages,
      tools,
      ...(this.textTools ? { toolFormat: 'text' as const } : {}),
      signal: call.signal,
      onRetry: call.onRetry,
    });
    this.overflows.fitted();
    return { kind: 'reply', response };
  }

  /** What an error `ask` threw means for the next step; an error that is not the model's is thrown on. */
  failed(error: unknown): ModelOutcome {
    const failure = modelFailure(error, this.textTools);
    switch (failure?.kind) {
      case 'text_tools':
        this.textTools = true;
        return { kind: 'again' };
      case 'overflow':
        if (this.overflows.overflowed()) {
          return { kind: 'fail', reason: CONTEXT_OVERFLOW_ERROR, statusId: undefined };
        }
        this.condensationRequested = true;
        return { kind: 'again' };
      case 'fail':
        return failure;
      default:
        throw error;
    }
  }
}
