import type { V0Event } from '../../shared/api/events';
import type { V1_EVENT_KINDS } from '../../shared/api/v1-events';
import type { Db } from '../storage/database';

export type V1EventKind = (typeof V1_EVENT_KINDS)[number];

export interface V1Event {
  id: string;
  kind: V1EventKind;
  timestamp: string;
  source: string;
  conversation_id: string;
  v0: V0Event;
}

/** The V1 kind of a V0 event (api-contract §13). */
export function kindOf(event: V0Event): V1EventKind {
  if (event.action) {
    if (event.action === 'message') return 'MessageEvent';
    if (event.action === 'system') return 'SystemPromptEvent';
    if (
      event.action === 'change_agent_state' &&
      (event.args as { agent_state?: unknown }).agent_state === 'paused'
    ) {
      return 'PauseEvent';
    }
    return event.action === 'condensation' ? 'Condensation' : 'ActionEvent';
  }
  switch (event.observation) {
    case 'agent_state_changed':
      return 'ConversationStateUpdateEvent';
    case 'error':
      return 'AgentErrorEvent';
    case 'user_rejected':
      return 'UserRejectObservation';
    case 'condense':
      return 'CondensationSummaryEvent';
    default:
      return 'ObservationEvent';
  }
}

export function v1Event(conversationId: string, event: V0Event): V1Event {
  return {
    id: `${conversationId}:${event.id}`,
    kind: kindOf(event),
    timestamp: event.timestamp,
    source: event.source,
    conversation_id: conversationId,
    v0: event,
  };
}

export interface V1EventFilters {
  conversationId?: string | undefined;
  kind?: V1EventKind | undefined;
  timestampGte?: string | undefined;
  timestampLt?: string | undefined;
  descending: boolean;
}

/** Events of every conversation (or one) as V1 envelopes, filtered and ordered by timestamp. */
export function searchV1Events(db: Db, filters: V1EventFilters): V1Event[] {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (filters.conversationId) {
    clauses.push('conversation_id = ?');
    params.push(filters.conversationId);
  }
  if (filters.timestampGte) {
    clauses.push('timestamp >= ?');
    params.push(filters.timestampGte);
  }
  if (filters.timestampLt) {
    clauses.push('timestamp < ?');
    params.push(filters.timestampLt);
  }
  const order = filters.descending ? 'DESC' : 'ASC';
  const rows = db
    .prepare(
      `SELECT conversation_id, data FROM events ${clauses.length ? `WHERE ${clauses.join(' AND ')}` : ''}
       ORDER BY timestamp ${order}, conversation_id, id ${order}`,
    )
    .all(...params) as { conversation_id: string; data: string }[];
  const events = rows.map((r) => v1Event(r.conversation_id, JSON.parse(r.data) as V0Event));
  return filters.kind ? events.filter((e) => e.kind === filters.kind) : events;
}

/** One V1 event by its `<conversation id>:<event id>` id, or null. */
export function getV1Event(db: Db, id: string): V1Event | null {
  const match = /^(.+):(\d+)$/.exec(id);
  if (!match) return null;
  const row = db
    .prepare('SELECT data FROM events WHERE conversation_id = ? AND id = ?')
    .get(match[1], Number(match[2])) as { data: string } | undefined;
  return row ? v1Event(match[1] as string, JSON.parse(row.data) as V0Event) : null;
}
