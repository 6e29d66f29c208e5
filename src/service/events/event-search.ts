import type { Db } from '../storage/database';
import type { DockhandEvent } from './model/dockhand-event';
import { readStoredEvent, type StoredRow } from './stored-event';

/** A stored event and its conversation. */
export interface ConversationEvent {
  conversationId: string;
  event: DockhandEvent;
}

export interface EventSearch {
  conversationId?: string | undefined;
  timestampGte?: string | undefined;
  timestampLt?: string | undefined;
  descending: boolean;
}

/** Events of every conversation (or one), filtered and ordered by timestamp. */
export function searchEvents(db: Db, search: EventSearch): ConversationEvent[] {
  const clauses: string[] = [];
  const params: string[] = [];
  if (search.conversationId) {
    clauses.push('conversation_id = ?');
    params.push(search.conversationId);
  }
  if (search.timestampGte) {
    clauses.push('timestamp >= ?');
    params.push(search.timestampGte);
  }
  if (search.timestampLt) {
    clauses.push('timestamp < ?');
    params.push(search.timestampLt);
  }
  const order = search.descending ? 'DESC' : 'ASC';
  const rows = db
    .prepare(
      `SELECT conversation_id, format, data FROM events ${clauses.length ? `WHERE ${clauses.join(' AND ')}` : ''}
       ORDER BY timestamp ${order}, conversation_id, id ${order}`,
    )
    .all(...params) as unknown as (StoredRow & { conversation_id: string })[];
  return rows.map((row) => ({ conversationId: row.conversation_id, event: readStoredEvent(row) }));
}

/** One stored event, or null. */
export function findEvent(db: Db, conversationId: string, id: number): DockhandEvent | null {
  const row = db
    .prepare('SELECT format, data FROM events WHERE conversation_id = ? AND id = ?')
    .get(conversationId, id) as StoredRow | undefined;
  return row ? readStoredEvent(row) : null;
}
