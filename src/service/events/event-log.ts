import { EventEmitter } from 'node:events';
import type { NewEvent, V0Event } from '../../shared/api/events';
import type { Db } from '../storage/database';
import { EventFollower, type EventSink, type StoredEventJson } from './event-follower';
import type { SecretMasker } from './secret-masker';

export interface EventPage {
  events: V0Event[];
  has_more: boolean;
}

export interface PageQuery {
  startId: number;
  /** Inclusive; default the last event. */
  endId?: number | undefined;
  reverse: boolean;
  limit: number;
}

/** Drops null and undefined top-level keys, as V0 events omit them. */
function withoutNulls(event: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(event).filter(([, v]) => v !== null && v !== undefined));
}

/**
 * The append-only event log of every conversation, the source of truth for what happened.
 * Events are masked, numbered gap-free from 0 and committed before anyone hears of them.
 */
export class EventLog {
  private readonly live = new EventEmitter();
  private readonly nextIds = new Map<string, number>();
  /** Prepared once: an agent step appends several events and reads the new ones back. */
  private readonly insert;
  private readonly selectAfter;

  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.live.setMaxListeners(0);
    this.insert = db.prepare('INSERT INTO events (conversation_id, id, timestamp, data) VALUES (?, ?, ?, ?)');
    this.selectAfter = db.prepare(
      'SELECT data FROM events WHERE conversation_id = ? AND id > ? ORDER BY id LIMIT ?',
    );
  }

  /** Masks, numbers, stores and then publishes an event; returns it as stored. */
  append(conversationId: string, event: NewEvent, masker: SecretMasker): V0Event {
    const id = this.nextId(conversationId);
    const stored = masker.mask(
      withoutNulls({ ...event, id, timestamp: event.timestamp ?? this.now().toISOString() }),
    ) as V0Event;
    this.insert.run(conversationId, id, stored.timestamp, JSON.stringify(stored));
    this.nextIds.set(conversationId, id + 1);
    this.live.emit(conversationId, stored);
    return stored;
  }

  lastId(conversationId: string): number {
    return this.nextId(conversationId) - 1;
  }

  get(conversationId: string, id: number): V0Event | null {
    const row = this.db
      .prepare('SELECT data FROM events WHERE conversation_id = ? AND id = ?')
      .get(conversationId, id) as { data: string } | undefined;
    return row ? (JSON.parse(row.data) as V0Event) : null;
  }

  /** Events with `id > afterId`, oldest first. */
  after(conversationId: string, afterId: number, limit = -1): V0Event[] {
    const rows = this.selectAfter.all(conversationId, afterId, limit) as { data: string }[];
    return rows.map((r) => JSON.parse(r.data) as V0Event);
  }

  /** Up to `limit` events with `id > afterId`, oldest first, as the JSON stored (for streams that send it on). */
  afterJson(conversationId: string, afterId: number, limit: number): StoredEventJson[] {
    return this.db
      .prepare('SELECT id, data AS json FROM events WHERE conversation_id = ? AND id > ? ORDER BY id LIMIT ?')
      .all(conversationId, afterId, limit) as StoredEventJson[];
  }

  /** A page of `GET /api/conversations/{id}/events`. */
  page(conversationId: string, query: PageQuery): EventPage {
    const endId = query.endId ?? Number.MAX_SAFE_INTEGER;
    const order = query.reverse ? 'DESC' : 'ASC';
    const rows = this.db
      .prepare(
        `SELECT data FROM events WHERE conversation_id = ? AND id >= ? AND id <= ? ORDER BY id ${order} LIMIT ?`,
      )
      .all(conversationId, query.startId, endId, query.limit + 1) as { data: string }[];
    return {
      events: rows.slice(0, query.limit).map((r) => JSON.parse(r.data) as V0Event),
      has_more: rows.length > query.limit,
    };
  }

  /**
   * Feeds `sink` the events with `id > after`: the stored ones, then live ones, each once and in order
   * (`event-follower.ts`). The caller stops the follower when its client goes.
   */
  follow(conversationId: string, after: number, sink: EventSink): EventFollower {
    return new EventFollower(this, conversationId, after, sink);
  }

  /** Calls `listener` with every event appended from now on; returns the unsubscribe function. */
  subscribe(conversationId: string, listener: (event: V0Event) => void): () => void {
    this.live.on(conversationId, listener);
    return () => this.live.off(conversationId, listener);
  }

  deleteAll(conversationId: string): void {
    this.db.prepare('DELETE FROM events WHERE conversation_id = ?').run(conversationId);
    this.nextIds.delete(conversationId);
  }

  private nextId(conversationId: string): number {
    const cached = this.nextIds.get(conversationId);
    if (cached !== undefined) return cached;
    const row = this.db
      .prepare('SELECT MAX(id) AS last FROM events WHERE conversation_id = ?')
      .get(conversationId) as {
      last: number | null;
    };
    const next = (row.last ?? -1) + 1;
    this.nextIds.set(conversationId, next);
    return next;
  }
}
