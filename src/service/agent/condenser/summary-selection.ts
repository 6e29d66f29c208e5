import type { V0Event } from '../../../shared/api/events';

/** Events at the start of the view the summarizer always keeps (system, first user message, recall, …). */
const KEEP_FIRST = 4;
/** `condenser_max_size` when the setting is null. */
export const DEFAULT_MAX_SIZE = 120;
/** The share of the context window an estimated prompt may fill before the summarizer runs. */
const PROMPT_SHARE = 0.8;

export interface SummaryTriggerInput {
  /** Events in the view (its summary included). */
  viewSize: number;
  maxSize: number;
  estimatedPromptTokens: number;
  contextWindow: number;
}

/** More than `maxSize` events in view, or an estimated prompt above 80% of the context window. */
export function summaryTriggered(input: SummaryTriggerInput): boolean {
  return input.viewSize > input.maxSize || input.estimatedPromptTokens > PROMPT_SHARE * input.contextWindow;
}

/** Events kept at the end: half of `maxSize`, less the kept first events and the summary (55 for 120). */
export function keptLast(maxSize: number): number {
  return Math.max(1, Math.floor(maxSize / 2) - KEEP_FIRST - 1);
}

/** The events the summarizer replaces: all but the first 4 and the last `keptLast(maxSize)`. */
export function summaryMiddle(history: V0Event[], maxSize: number): V0Event[] {
  return history.slice(KEEP_FIRST, Math.max(KEEP_FIRST, history.length - keptLast(maxSize)));
}
