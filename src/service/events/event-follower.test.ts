import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDataDir } from '../../../test/support/service';
import { openDatabase, type Db } from '../storage/database';
import { MAX_QUEUED_BYTES, REPLAY_CHUNK, type EventSink, type FollowEnd } from './event-follower';
import type { DockhandEvent } from './model/dockhand-event';
import { EventLog } from './event-log';
import { SecretMasker } from './secret-masker';

const masker = new SecretMasker([]);

/**
 * A sink that records what it is given. Each replayed chunk stays pending until `takeIn()`, as a client
 * that has not read it yet; `backlog` is what it reports as not taken in once live.
 */
class FakeSink implements EventSink {
  readonly replayed: number[][] = [];
  readonly heard: number[] = [];
  readonly calls: string[] = [];
  closedWith: FollowEnd | null = null;
  backlog = 0;
  failLive = false;
  private readonly pending: (() => void)[] = [];

  get isClosed(): boolean {
    return this.closedWith !== null;
  }

  replay(events: readonly DockhandEvent[]): Promise<void> {
    this.replayed.push(events.map((event) => event.id));
    this.calls.push('replay');
    return new Promise((resolve) => this.pending.push(resolve));
  }

  caughtUp(lastId: number): void {
    this.calls.push(`caughtUp ${lastId}`);
  }

  live(event: DockhandEvent): void {
    if (this.failLive) throw new Error('the connection broke');
    this.heard.push(event.id);
  }

  queuedBytes(): number {
    return this.backlog;
  }

  close(reason: FollowEnd): void {
    this.closedWith = reason;
  }

  /** Lets the pending chunk through and waits for the follower's next step. */
  async takeIn(): Promise<void> {
    this.pending.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  }

  ids(): number[] {
    return [...this.replayed.flat(), ...this.heard];
  }
}

describe('EventFollower', () => {
  let dir: string;
  let db: Db;
  let log: EventLog;
  let reads: number;

  const append = (count: number) => {
    for (let i = 0; i < count; i++)
      log.append('c1', { source: 'agent', message: `m${i}`, observation: 'run', content: 'x' }, masker);
  };
  const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

  beforeEach(() => {
    dir = tempDataDir();
    db = openDatabase(dir);
    log = new EventLog(db);
    reads = 0;
    const events = log.events.bind(log);
    log.events = (...args) => {
      reads++;
      return events(...args);
    };
  });

  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('replays after `after` in chunks, reading the next only once the sink has taken the last in', async () => {
    append(2 * REPLAY_CHUNK + 50);
    const sink = new FakeSink();
    log.follow('c1', 9, sink);
    expect(sink.replayed).toEqual([range(10, 10 + REPLAY_CHUNK)]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toBe(1);
    await sink.takeIn();
    await sink.takeIn();
    expect(sink.replayed.map((chunk) => chunk.length)).toEqual([REPLAY_CHUNK, REPLAY_CHUNK, 40]);
    expect(sink.calls.at(-1)).toBe('replay');
    await sink.takeIn();
    expect(sink.ids()).toEqual(range(10, 2 * REPLAY_CHUNK + 50));
    expect(sink.calls.at(-1)).toBe(`caughtUp ${2 * REPLAY_CHUNK + 49}`);
  });

  it('delivers events appended during the replay once, in order, then live ones', async () => {
    append(5);
    const sink = new FakeSink();
    log.follow('c1', -1, sink);
    append(3); // while the first chunk is still being taken in
    await sink.takeIn();
    append(2);
    await sink.takeIn();
    await sink.takeIn();
    expect(sink.replayed).toEqual([range(0, 5), range(5, 8), range(8, 10)]);
    expect(sink.calls.at(-1)).toBe('caughtUp 9');
    append(2);
    expect(sink.heard).toEqual([10, 11]);
    expect(sink.ids()).toEqual(range(0, 12));
  });

  it('catches up at once on an empty log, and with `after` beyond its end', () => {
    const empty = new FakeSink();
    log.follow('c1', -1, empty);
    expect(empty.calls).toEqual(['caughtUp -1']);
    append(3);
    const ahead = new FakeSink();
    log.follow('c1', 7, ahead);
    expect(ahead.calls).toEqual(['caughtUp 2']);
    append(6); // ids 3 to 8: the client asked for those after 7
    expect(ahead.heard).toEqual([8]);
  });

  it('closes a live sink more than 1 MiB behind with the reason, and hears no more', () => {
    const sink = new FakeSink();
    const follower = log.follow('c1', -1, sink);
    append(1);
    sink.backlog = MAX_QUEUED_BYTES;
    append(1); // at the limit, not over it
    let wrote = 0;
    follower.send(() => wrote++);
    sink.backlog = MAX_QUEUED_BYTES + 1;
    append(1);
    expect(sink.heard).toEqual([0, 1]);
    expect(wrote).toBe(1);
    expect(sink.closedWith).toBe('too_far_behind');
    sink.closedWith = null; // even were it to report itself open again
    append(1);
    follower.send(() => wrote++);
    expect(sink.heard).toEqual([0, 1]);
    expect(wrote).toBe(1);
  });

  it('does not cut a sink off during the replay, which waits for it instead', async () => {
    append(3);
    const sink = new FakeSink();
    const follower = log.follow('c1', -1, sink);
    sink.backlog = 10 * MAX_QUEUED_BYTES;
    let wrote = 0;
    follower.send(() => wrote++);
    expect(wrote).toBe(1);
    expect(sink.closedWith).toBeNull();
    await sink.takeIn();
    expect(sink.calls.at(-1)).toBe('caughtUp 2');
  });

  it('stops reading when the sink has gone or the follower is stopped', async () => {
    append(REPLAY_CHUNK + 1);
    const gone = new FakeSink();
    log.follow('c1', -1, gone);
    gone.closedWith = 'failed';
    await gone.takeIn();
    expect(gone.replayed).toHaveLength(1);
    expect(gone.calls).toEqual(['replay']);

    const stopped = new FakeSink();
    const follower = log.follow('c1', REPLAY_CHUNK - 1, stopped);
    await stopped.takeIn();
    follower.stop();
    append(1);
    expect(stopped.ids()).toEqual([REPLAY_CHUNK]);
  });

  it('closes a sink whose write fails, without failing the append', async () => {
    const sink = new FakeSink();
    log.follow('c1', -1, sink);
    sink.failLive = true;
    expect(() => append(2)).not.toThrow();
    expect(sink.closedWith).toBe('failed');
    expect(log.lastId('c1')).toBe(1);
  });
});
