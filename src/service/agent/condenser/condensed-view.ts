import type { V0Event } from '../../../shared/api/events';
import { CONDENSATION_ACTION, condensationRecord } from './condensation-event';
import { withToolPartners } from './tool-pairing';

export const SUMMARY_OBSERVATION = 'condense';

/** Bookkeeping kinds that are never part of the history the model reads. */
const OUT_OF_VIEW = new Set([
  CONDENSATION_ACTION,
  'condensation_request',
  'change_agent_state',
  'agent_state_changed',
  'null',
]);

function inHistory(event: V0Event): boolean {
  if (event.args?.hidden === true || event.extras?.hidden === true) return false;
  return !OUT_OF_VIEW.has(event.action ?? event.observation ?? '');
}

/**
 * The summary as the view shows it: a `condense` observation (API contract §5.2) carrying the
 * condensation's id and time, rendered to the model as a user message.
 */
function summaryEvent(condensation: V0Event, summary: string): V0Event {
  return {
    id: condensation.id,
    timestamp: condensation.timestamp,
    source: condensation.source,
    message: summary,
    observation: SUMMARY_OBSERVATION,
    content: summary,
    extras: {},
  };
}

function isSummary(event: V0Event): boolean {
  return event.observation === SUMMARY_OBSERVATION;
}

/** A view split into its events and the summary text it shows (null when it shows none). */
export function splitSummary(view: V0Event[]): { history: V0Event[]; summary: string | null } {
  const shown = view.find(isSummary);
  return { history: view.filter((e) => !isSummary(e)), summary: shown?.content ?? null };
}

/**
 * What the model sees of a conversation (agent-behaviour §5): the non-hidden events minus bookkeeping,
 * condensation events and every event a condensation forgot, with tool calls and results only in pairs,
 * and the latest summary inserted at its offset.
 */
export function condensedView(events: V0Event[]): V0Event[] {
  const condensations = events
    .filter((e) => e.action === CONDENSATION_ACTION)
    .map((event) => ({ event, ...condensationRecord(event) }));
  const history = events.filter(inHistory);
  const forgotten = new Set(
    history.filter((e) => condensations.some((c) => c.forgets(e.id))).map((e) => e.id),
  );
  const gone = withToolPartners(history, forgotten);
  const view = history.filter((e) => !gone.has(e.id));
  const latest = condensations.findLast((c) => c.summary !== null && c.summaryOffset !== null);
  if (!latest || latest.summary === null) return view;
  const offset = Math.min(Math.max(latest.summaryOffset ?? 0, 0), view.length);
  view.splice(offset, 0, summaryEvent(latest.event, latest.summary));
  return view;
}
