import type { NewEvent, V0Event } from '../../../shared/api/events';
import { LlmError } from '../llm/llm-errors';
import type { LlmClient, LlmRequest, LlmResponse } from '../llm/llm-types';
import { condensationAction } from './condensation-event';
import { splitSummary } from './condensed-view';
import { summarize } from './llm-summarizer';
import { DEFAULT_MAX_SIZE, summaryMiddle, summaryTriggered } from './summary-selection';
import { withToolPartners } from './tool-pairing';
import { windowDropped } from './window-selection';

/** The summary recorded when the summary call itself overflows and the window runs instead. */
export const SUMMARY_OVERFLOW_TEXT =
  'Earlier events were dropped without a summary because they did not fit the context window.';

/** The context window assumed when neither the model table nor the provider knows it. */
export const FALLBACK_CONTEXT_WINDOW = 32_768;

export interface CondenseInput {
  /** The current view (`condensedView` of the conversation's events). */
  view: V0Event[];
  /** Input tokens the model accepts. */
  contextWindow: number;
  /** The next agent request's size (`tokenEstimate`). */
  estimatedPromptTokens: number;
  /** A condensation was requested (the last agent call overflowed the context window). */
  requested: boolean;
  /** `enable_default_condenser`: the LLM summarizer may run; without it only requests condense. */
  enabled: boolean;
  /** The agent's model client; the summary call is one of its calls, as service `condenser`. */
  llm: LlmClient;
  signal?: AbortSignal;
  onRetry?: LlmRequest['onRetry'];
}

export interface CondenserOutcome {
  /** The `condensation` action to append to the log. */
  condensation: NewEvent;
  /** The summary call (service `condenser`), whose usage and cost count; null when none was made. */
  summaryCall: LlmResponse | null;
}

function windowOutcome(history: V0Event[], summary: string | null): CondenserOutcome | null {
  const condensation = condensationAction(history, windowDropped(history), summary);
  return condensation && { condensation, summaryCall: null };
}

/**
 * Keeps a conversation within the model's context window (agent-behaviour §5), run before each agent
 * request: on a request the window condenser, else (when enabled) the LLM summarizer once the view has
 * more than `maxSize` events or the prompt fills more than 80% of the window. The outcome is a
 * `condensation` action; nothing is deleted.
 */
export class Condenser {
  private readonly maxSize: number;

  /** `maxSize`: the `condenser_max_size` setting (null means 120). */
  constructor(options: { maxSize?: number | null } = {}) {
    this.maxSize = options.maxSize ?? DEFAULT_MAX_SIZE;
  }

  /** The condensation to record before the next agent request, or null when the view can go as it is. */
  async maybeCondense(input: CondenseInput): Promise<CondenserOutcome | null> {
    const { history, summary } = splitSummary(input.view);
    if (input.requested) return windowOutcome(history, summary);
    if (!input.enabled) return null;
    const triggered = summaryTriggered({
      viewSize: input.view.length,
      maxSize: this.maxSize,
      estimatedPromptTokens: input.estimatedPromptTokens,
      contextWindow: input.contextWindow,
    });
    if (!triggered) return null;
    const middle = summaryMiddle(history, this.maxSize).map((e) => e.id);
    const forgotten = withToolPartners(history, new Set(middle));
    if (forgotten.size === 0) return null;
    let response: LlmResponse;
    try {
      response = await summarize({
        previousSummary: summary,
        events: history.filter((e) => forgotten.has(e.id)),
        llm: input.llm,
        signal: input.signal,
        onRetry: input.onRetry,
      });
    } catch (error) {
      if (error instanceof LlmError && error.kind === 'context_overflow') {
        return windowOutcome(history, SUMMARY_OVERFLOW_TEXT);
      }
      throw error;
    }
    const condensation = condensationAction(history, forgotten, response.text.trim());
    return condensation && { condensation, summaryCall: response };
  }
}
