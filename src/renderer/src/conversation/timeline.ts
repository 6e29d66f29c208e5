import type { V0Event } from '../../../shared/api/events';
import { answer, actionRow, observationRow } from './event-rows';
import { confirmationOf, isRequest, settledCalls, settlingCall, text, toolCallId } from './event-args';
import type { TimelineRow } from './timeline-rows';

/** Agent states worth a separator: the ones that end or interrupt its work. */
const SEPARATOR_STATES = new Set(['paused', 'stopped', 'error', 'finished', 'rejected']);

/**
 * The rows a person reads, kept up to date as events arrive: each update reads only the events after the
 * ones it has seen, and rows that did not change stay the same objects. Events inserted before the end, or
 * a call settled after its request was shown, rebuild the rows from the start.
 */
export class TimelineBuilder {
  private events: readonly V0Event[] = [];
  private rows: TimelineRow[] = [];
  private snapshot: readonly TimelineRow[] = [];
  /** Row indexes by the id of the action that opened them and by tool call. */
  private byAction = new Map<number, number>();
  private byCall = new Map<string, number>();
  /** Calls with an awaiting copy shown, and calls settled so far. */
  private requested = new Set<string>();
  private settled = new Set<string>();
  private agentState: string | null = null;
  /** Rows from this index on were made by the running update and may still be changed in place. */
  private fresh = 0;
  /** Whether the rows differ from the snapshot last returned. */
  private changed = false;

  update(events: readonly V0Event[]): readonly TimelineRow[] {
    if (events === this.events) return this.snapshot;
    const seen = this.events.length;
    if (events.length < seen || (seen > 0 && events[seen - 1] !== this.events[seen - 1])) {
      return this.rebuild(events);
    }
    this.fresh = this.rows.length;
    for (let index = seen; index < events.length; index++) {
      if (!this.add(events[index] as V0Event)) return this.rebuild(events);
    }
    return this.done(events);
  }

  /** Builds the rows from the start, knowing every call the events settle. */
  private rebuild(events: readonly V0Event[]): readonly TimelineRow[] {
    this.rows = [];
    this.byAction = new Map();
    this.byCall = new Map();
    this.requested = new Set();
    this.settled = settledCalls(events);
    this.agentState = null;
    this.fresh = 0;
    this.changed = true;
    for (const event of events) this.add(event);
    return this.done(events);
  }

  private done(events: readonly V0Event[]): readonly TimelineRow[] {
    this.events = events;
    if (this.changed) this.snapshot = this.rows.slice();
    this.changed = false;
    return this.snapshot;
  }

  /** Adds one event; false when an earlier row must go (a call settled after its request was shown). */
  private add(event: V0Event): boolean {
    if (event.observation === 'agent_state_changed') {
      const state = text(event.extras?.agent_state);
      if (SEPARATOR_STATES.has(state) && state !== this.agentState) {
        this.push({
          key: `e${event.id}`,
          id: event.id,
          at: event.timestamp,
          kind: 'state',
          state,
          reason: text(event.extras?.reason),
        });
      }
      this.agentState = state;
      return true;
    }
    if (event.action) {
      const callId = toolCallId(event);
      const settles = settlingCall(event);
      if (settles) {
        // Its awaiting copy is on screen: only a build that knows the settlement leaves it out.
        if (this.requested.has(settles) && !this.settled.has(settles)) return false;
        this.settled.add(settles);
      }
      if (callId && isRequest(event) && this.settled.has(callId)) return true;
      const row = actionRow(event);
      if (!row) return true;
      if (callId && isRequest(event)) this.requested.add(callId);
      this.byAction.set(event.id, this.rows.length);
      if (callId) this.byCall.set(callId, this.rows.length);
      this.push(row);
      return true;
    }
    // An observation answers its `cause`; one that says why a call did not run names only the call.
    const callId = toolCallId(event);
    const index =
      event.cause !== undefined
        ? this.byAction.get(event.cause)
        : callId
          ? this.byCall.get(callId)
          : undefined;
    const answered = index === undefined ? undefined : this.rows[index];
    const changes = answer(answered, event);
    if (index !== undefined && answered && changes) {
      // A row the screen already shows is replaced, so its view sees the change.
      if (index < this.fresh) {
        this.rows[index] = { ...answered, ...changes } as TimelineRow;
        this.changed = true;
      } else {
        Object.assign(answered, changes);
      }
      return true;
    }
    const row = observationRow(event);
    if (row) this.push(row);
    return true;
  }

  private push(row: TimelineRow): void {
    this.rows.push(row);
    this.changed = true;
  }
}

/**
 * The rows a person reads: messages, commands with their output, edits with their diff, thoughts, errors,
 * and a separator where the agent paused, stopped, finished or failed. Observations are folded into
 * the row of the action they answer.
 */
export function buildTimeline(events: readonly V0Event[]): readonly TimelineRow[] {
  return new TimelineBuilder().update(events);
}

/** The agent state the events last reported, or null before the first report. */
export function lastAgentState(events: readonly V0Event[]): string | null {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (event?.observation === 'agent_state_changed') return text(event.extras?.agent_state) || null;
  }
  return null;
}

/** The action waiting for the user's confirmation: the last one asked about and not yet settled. */
export function pendingAction(events: readonly V0Event[]): V0Event | null {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (!event?.action || !event.args) continue;
    const state = confirmationOf(event.args);
    if (state === 'awaiting_confirmation') return event;
    if (state !== null) return null;
  }
  return null;
}
