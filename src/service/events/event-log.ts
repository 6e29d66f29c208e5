import { EventEmitter } from 'node:events';
import type { NewEvent, V0Event } from '../../shared/api/events';
import type { Db } from '../storage/database';
import { EventFollower, type EventSink } from './event-follower';
import { findEvent } from './event-search';
import type { DockhandEvent, NewDockhandEvent } from './model/dockhand-event';
import { fromV0, toV0, withoutNulls } from './model/v0-codec';
import type { SecretMasker } from './secret-masker';
import { readStoredEvent, STORED_FORMAT, type StoredRow } from './stored-event';

export interface EventPage {
  events: DockhandEvent[];
  hasMore: boolean;
}

export interface PageQuery {
  startId: number;
  /** Inclusive; default the last event. */
  endId?: number | undefined;
  reverse: boolean;
  limit: number;
}

const COLUMNS = 'format, data';

/**
 * The append-only event log of every conversation, the source of truth for what happened. It keeps
 * Dockhand's own events (`model/dockhand-event.ts`); rows of earlier versions, stored as V0 events, are read
 * through the V0 mapper (`stored-event.ts`). Events are masked, numbered gap-free from 0 and committed
 * before anyone hears of them.
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
    this.insert = db.prepare(
      'INSERT INTO events (conversation_id, id, timestamp, format, data) VALUES (?, ?, ?, ?, ?)',
    );
    this.selectAfter = db.prepare(
      `SELECT ${COLUMNS} FROM events WHERE conversation_id = ? AND id > ? ORDER BY id LIMIT ?`,
    );
  }

  /** Masks, numbers, stores and then publishes an event; returns it as stored. */
  add(conversationId: string, event: NewDockhandEvent, masker: SecretMasker): DockhandEvent {
    const id = this.nextId(conversationId);
    const stamped = { ...event, id, timestamp: event.timestamp ?? this.now().toISOString() };
    return this.store(conversationId, masker.mask(stamped as DockhandEvent));
  }

  /**
   * `add` for a producer that still builds V0 events: the event is read as Dockhand's (a shape the model
   * does not describe is kept as a legacy event) and returned in the V0 form.
   */
  append(conversationId: string, event: NewEvent, masker: SecretMasker): V0Event {
    return toV0(this.addV0(conversationId, event, masker));
  }

  /** `append`, returning the event as stored. */
  addV0(conversationId: string, event: NewEvent, masker: SecretMasker): DockhandEvent {
    const id = this.nextId(conversationId);
    const v0 = withoutNulls({ ...event, id, timestamp: event.timestamp ?? this.now().toISOString() });
    return this.store(conversationId, masker.mask(fromV0(v0 as V0Event)));
  }

  lastId(conversationId: string): number {
    return this.nextId(conversationId) - 1;
  }

  event(conversationId: string, id: number): DockhandEvent | null {
    return findEvent(this.db, conversationId, id);
  }

  get(conversationId: string, id: number): V0Event | null {
    const event = this.event(conversationId, id);
    return event && toV0(event);
  }

  /** Up to `limit` (-1: all) events with `id > afterId`, oldest first. */
  events(conversationId: string, afterId: number, limit = -1): DockhandEvent[] {
    return this.read(conversationId, afterId, limit);
  }

  /** `events` in the V0 form, for consumers that still read V0 events. */
  after(conversationId: string, afterId: number, limit = -1): V0Event[] {
    return this.read(conversationId, afterId, limit).map(toV0);
  }

  /** A page of a conversation's events, forwards or backwards, and whether more match. */
  page(conversationId: string, query: PageQuery): EventPage {
    const endId = query.endId ?? Number.MAX_SAFE_INTEGER;
    const order = query.reverse ? 'DESC' : 'ASC';
    const rows = this.db
      .prepare(
        `SELECT ${COLUMNS} FROM events WHERE conversation_id = ? AND id >= ? AND id <= ? ORDER BY id ${order} LIMIT ?`,
      )
      .all(conversationId, query.startId, endId, query.limit + 1) as unknown as StoredRow[];
    return {
      events: rows.slice(0, query.limit).map(readStoredEvent),
      hasMore: rows.length > query.limit,
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
  subscribe(conversationId: string, listener: (event: DockhandEvent) => void): () => void {
    this.live.on(conversationId, listener);
    return () => this.live.off(conversationId, listener);
  }

  deleteAll(conversationId: string): void {
    this.db.prepare('DELETE FROM events WHERE conversation_id = ?').run(conversationId);
    this.nextIds.delete(conversationId);
  }

  private read(conversationId: string, afterId: number, limit: number): DockhandEvent[] {
    const rows = this.selectAfter.all(conversationId, afterId, limit) as unknown as StoredRow[];
    return rows.map(readStoredEvent);
  }

  private store(conversationId: string, event: DockhandEvent): DockhandEvent {
    this.insert.run(conversationId, event.id, event.timestamp, STORED_FORMAT, JSON.stringify(event));
    this.nextIds.set(conversationId, event.id + 1);
    this.live.emit(conversationId, event);
    return event;
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
