import type { NewEvent, V0Event } from '../../../shared/api/events';
import { withToolPartners } from './tool-pairing';
import type { CondensationEvent } from '../../events/model/dockhand-event';

export const CONDENSATION_ACTION = 'condensation';

/** What a `condensation` action says: the events it forgot, and the summary shown in their place. */
export interface CondensationRecord {
  /** Whether an event id is among the forgotten ones. */
  forgets(id: number): boolean;
  summary: string | null;
  /** Where the summary goes among the events left in view. */
  summaryOffset: number | null;
}

/**
 * The `condensation` action that forgets `dropped` (ids of `history`, the view without its summary, in
 * order) and the tool partners of those events, with `summary` shown where the first forgotten event was.
 * An unbroken stretch of `history` is recorded as a start/end range (the range's other ids are already
 * out of view), else as an id list. Null when nothing would be forgotten.
 */
export function condensationAction(
  history: V0Event[],
  dropped: Iterable<number>,
  summary: string | null,
): NewEvent | null {
  const forgotten = withToolPartners(history, new Set(dropped));
  const first = history.findIndex((e) => forgotten.has(e.id));
  if (first < 0) return null;
  const last = history.findLastIndex((e) => forgotten.has(e.id));
  const ids = history.filter((e) => forgotten.has(e.id)).map((e) => e.id);
  const range =
    ids.length === last - first + 1 ? { start: ids[0] as number, end: ids.at(-1) as number } : null;
  const dropping = range ? `events ${range.start}-${range.end}` : `events ${ids.join(', ')}`;
  return {
    source: 'agent',
    message: summary ? `Summary: ${summary}` : `Condenser is dropping the ${dropping}.`,
    action: CONDENSATION_ACTION,
    args: {
      forgotten_event_ids: range ? null : ids,
      forgotten_events_start_id: range?.start ?? null,
      forgotten_events_end_id: range?.end ?? null,
      summary,
      summary_offset: summary === null ? null : first,
    },
  };
}

/** Reads a stored `condensation` action (an id list, else a start..end range). */
export function condensationRecord(event: V0Event): CondensationRecord {
  const args = event.args ?? {};
  const start = typeof args.forgotten_events_start_id === 'number' ? args.forgotten_events_start_id : null;
  const end = typeof args.forgotten_events_end_id === 'number' ? args.forgotten_events_end_id : null;
  return recordOf({
    forgottenIds: Array.isArray(args.forgotten_event_ids) ? args.forgotten_event_ids.map(Number) : null,
    forgottenRange: start !== null && end !== null ? { start, end } : null,
    summary: typeof args.summary === 'string' ? args.summary : null,
    summaryOffset: typeof args.summary_offset === 'number' ? args.summary_offset : null,
  });
}

/** What a `condensation` event says. */
export function recordOf(
  event: Pick<CondensationEvent, 'forgottenIds' | 'forgottenRange' | 'summary' | 'summaryOffset'>,
): CondensationRecord {
  const ids = event.forgottenIds ? new Set(event.forgottenIds) : null;
  const range = event.forgottenRange;
  return {
    forgets: (id) => (ids ? ids.has(id) : range !== null && id >= range.start && id <= range.end),
    summary: event.summary,
    summaryOffset: event.summaryOffset,
  };
}
