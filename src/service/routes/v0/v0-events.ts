import type { V0Event } from '../../../shared/api/events';
import type { EventPage } from '../../events/event-log';
import type { DockhandEvent } from '../../events/model/dockhand-event';
import { toV0 } from '../../events/model/v0-codec';

/**
 * Dockhand's events on the V0 wire (api-contract §5): the REST pages, the SSE stream and socket.io all send
 * what these functions make of the stored events, through the one V0 mapping (`events/model/v0-codec.ts`).
 */

/** Environment events that socket.io clients receive (as `agent`); the others stay in the log only. */
const FORWARDED_ENVIRONMENT = new Set(['run', 'agent_state_changed', 'recall', 'error']);

export const v0Event: (event: DockhandEvent) => V0Event = toV0;

/** A page of `GET /api/conversations/{id}/events`. */
export function v0Page(page: EventPage): { events: V0Event[]; has_more: boolean } {
  return { events: page.events.map(toV0), has_more: page.hasMore };
}

/** One event as an SSE `oh_event` frame, numbered with its id so `Last-Event-ID` resumes after it. */
export function sseFrame(event: DockhandEvent): string {
  return `id: ${event.id}\nevent: oh_event\ndata: ${JSON.stringify(toV0(event))}\n\n`;
}

/** The event as socket.io clients of OpenHands expect it, or null when it is not sent to them. */
export function socketIoEvent(event: DockhandEvent): V0Event | null {
  const v0 = toV0(event);
  if (v0.source !== 'environment') return v0;
  if (!v0.observation || !FORWARDED_ENVIRONMENT.has(v0.observation)) return null;
  return { ...v0, source: 'agent' };
}

/** How socket.io replays an event: skipped (recall actions), held back (agent states: only the last is sent, after the rest) or sent. */
export function socketIoReplay(event: DockhandEvent): 'skip' | 'hold' | 'send' {
  if (event.kind === 'status') return 'hold';
  return event.kind === 'legacy' && event.wire.action === 'recall' ? 'skip' : 'send';
}
