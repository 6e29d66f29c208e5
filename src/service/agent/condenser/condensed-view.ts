import type { V0Event } from '../../../shared/api/events';
import { CONDENSATION_ACTION, condensationRecord, type CondensationRecord } from './condensation-event';
import { ForgottenPartners } from './tool-pairing';

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
 * The summary as the view shows it: a `condense` observation (api-contract §5.2) carrying the
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

interface ViewParts {
  condensations: (CondensationRecord & { event: V0Event })[];
  partners: ForgottenPartners;
  /** The view without its summary. */
  events: V0Event[];
  summary: { offset: number; event: V0Event } | null;
  /** The summary's recorded offset is past the end of the view (it is shown last). */
  clamped: boolean;
}

function viewParts(events: V0Event[]): ViewParts {
  const condensations = events
    .filter((e) => e.action === CONDENSATION_ACTION)
    .map((event) => ({ event, ...condensationRecord(event) }));
  const history = events.filter(inHistory);
  const forgotten = new Set(
    history.filter((e) => condensations.some((c) => c.forgets(e.id))).map((e) => e.id),
  );
  const partners = new ForgottenPartners(history, forgotten);
  const view = history.filter((e) => !partners.has(e));
  const latest = condensations.findLast((c) => c.summary !== null && c.summaryOffset !== null);
  if (!latest || latest.summary === null)
    return { condensations, partners, events: view, summary: null, clamped: false };
  const wanted = Math.max(latest.summaryOffset ?? 0, 0);
  const offset = Math.min(wanted, view.length);
  const summary = { offset, event: summaryEvent(latest.event, latest.summary) };
  return { condensations, partners, events: view, summary, clamped: wanted > view.length };
}

function assembled(parts: ViewParts): V0Event[] {
  const view = [...parts.events];
  if (parts.summary) view.splice(parts.summary.offset, 0, parts.summary.event);
  return view;
}

/**
 * What the model sees of a conversation (agent-behaviour §5): the non-hidden events minus bookkeeping,
 * condensation events and every event a condensation forgot, with tool calls and results only in pairs,
 * and the latest summary inserted at its offset.
 */
export function condensedView(events: V0Event[]): V0Event[] {
  return assembled(viewParts(events));
}

/**
 * `condensedView` of one append-only event list, asked for again as it grows (the agent loop, before each
 * step): events added since the last call are appended to the view, and the whole list is worked out again
 * only when a condensation arrives or a new event is not simply shown.
 */
export class GrowingCondensedView {
  private source: V0Event[] | null = null;
  private read = 0;
  private parts: ViewParts | null = null;

  of(events: V0Event[]): V0Event[] {
    if (!this.parts || events !== this.source || events.length < this.read || !this.extend(events)) {
      this.parts = viewParts(events);
      this.source = events;
    }
    this.read = events.length;
    return assembled(this.parts);
  }

  /** Appends the new events to the view; false when the view must be worked out again. */
  private extend(events: V0Event[]): boolean {
    const parts = this.parts as ViewParts;
    const fresh = events.slice(this.read);
    if (parts.clamped || fresh.some((e) => e.action === CONDENSATION_ACTION)) return false;
    const added = fresh.filter(inHistory);
    const dropped = (e: V0Event) => parts.partners.has(e) || parts.condensations.some((c) => c.forgets(e.id));
    if (added.some(dropped)) return false;
    parts.events.push(...added);
    return true;
  }
}
