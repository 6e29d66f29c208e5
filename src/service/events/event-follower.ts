import type { DockhandEvent } from './model/dockhand-event';

/** A live client that lets more than this pile up unread is cut off (the replay waits for it instead). */
export const MAX_QUEUED_BYTES = 1024 * 1024;
/** Stored events read and written per step of a replay. */
export const REPLAY_CHUNK = 200;

/** What a follower reads: the stored events of a conversation and the ones appended from now on. */
export interface FollowedLog {
  events(conversationId: string, afterId: number, limit: number): DockhandEvent[];
  lastId(conversationId: string): number;
  subscribe(conversationId: string, listener: (event: DockhandEvent) => void): () => void;
}

/** Why a follower closed its sink. */
export type FollowEnd = 'too_far_behind' | 'failed';

/**
 * One client's connection as the follower writes to it. The sink keeps its wire format and its own
 * filtering; the follower decides what is read, when, and when the client is cut off.
 */
export interface EventSink {
  /** The client has gone: the follower reads and writes nothing more. */
  readonly isClosed: boolean;
  /** Writes one chunk of stored events, oldest first; resolves once the client has taken it in (or left). */
  replay(events: readonly DockhandEvent[]): Promise<void>;
  /** The replay has reached the end of the log (`lastId`, -1 when it is empty); live events follow. */
  caughtUp(lastId: number): void;
  /** Writes one event appended after the replay. */
  live(event: DockhandEvent): void;
  /** Bytes written that the client has not taken in yet. */
  queuedBytes(): number;
  /** Ends the client's connection. */
  close(reason: FollowEnd): void;
}

/**
 * Feeds one sink a conversation's events after `after`: the stored ones in chunks, each written out before
 * the next is read (a long conversation is never held in memory, nor piled up unread), then the live ones,
 * each once and in order. Live events heard during the replay are left to the replay, which reads them from
 * the log; its last read (which finds nothing new) and the switch to live happen in one turn, so no event
 * falls between them. Live, a sink more than `MAX_QUEUED_BYTES` behind is closed with `too_far_behind`.
 */
export class EventFollower {
  private lastSent: number;
  private replaying = true;
  private stopped = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly log: FollowedLog,
    private readonly conversationId: string,
    after: number,
    private readonly sink: EventSink,
  ) {
    this.lastSent = after;
    this.unsubscribe = log.subscribe(conversationId, (event) => {
      if (!this.replaying && event.id > this.lastSent) this.send(() => this.sendLive(event));
    });
    void this.replay().catch(() => this.end('failed'));
  }

  /**
   * Writes something other than a stored event (a status update, an error reply) under the same rule as
   * live events: dropped once the sink has gone, and live, the sink is closed instead when too far behind.
   */
  send(write: () => void): void {
    if (this.stopped || this.sink.isClosed) return;
    if (!this.replaying && this.sink.queuedBytes() > MAX_QUEUED_BYTES) return this.end('too_far_behind');
    try {
      write();
    } catch {
      // A client's failure must not reach the code that appended the event.
      this.end('failed');
    }
  }

  /** Stops following (the client has gone); idempotent. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.unsubscribe();
  }

  private async replay(): Promise<void> {
    for (;;) {
      if (this.stopped || this.sink.isClosed) return;
      const events = this.log.events(this.conversationId, this.lastSent, REPLAY_CHUNK);
      const last = events.at(-1);
      if (!last) break;
      this.lastSent = last.id;
      await this.sink.replay(events);
    }
    this.replaying = false;
    this.sink.caughtUp(this.log.lastId(this.conversationId));
  }

  private sendLive(event: DockhandEvent): void {
    this.lastSent = event.id;
    this.sink.live(event);
  }

  private end(reason: FollowEnd): void {
    this.stop();
    this.sink.close(reason);
  }
}
