import { describe, expect, it } from 'vitest';
import type { V0Event } from '../../../shared/api/events';
import { ApiError } from '../api/api-error';
import { followEvents, type EventPage, type FeedMode, type StreamSource } from './event-feed';
import { event } from '../../../../test/support/test-events';

class FakeStream implements StreamSource {
  readyState = 0;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  private readonly listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();

  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  emit(type: string, data: unknown): void {
    const message = { data: JSON.stringify(data) } as MessageEvent<string>;
    for (const listener of this.listeners.get(type) ?? []) listener(message);
  }

  fail(readyState: number): void {
    this.readyState = readyState;
    this.onerror?.(new Event('error'));
  }

  close(): void {
    this.closed = true;
    this.readyState = 2;
  }
}

/** A feed over a fake stream and a scripted events route, with waits that return at once. */
function harness(pages: (startId: number) => EventPage | Error) {
  const received: V0Event[] = [];
  const modes: FeedMode[] = [];
  const endings: string[] = [];
  const statuses: unknown[] = [];
  const opened: number[] = [];
  const fetched: number[] = [];
  const stream = new FakeStream();
  let waits = 0;
  let stop: () => void = () => undefined;
  stop = followEvents(
    {
      openStream: (after) => {
        opened.push(after);
        return stream;
      },
      fetchPage: async (startId) => {
        fetched.push(startId);
        const page = pages(startId);
        if (page instanceof Error) throw page;
        return page;
      },
      lastId: () => received.at(-1)?.id ?? -1,
    },
    {
      events: (events) => received.push(...events),
      status: (payload) => statuses.push(payload),
      mode: (mode) => modes.push(mode),
      ended: (reason) => endings.push(reason),
    },
    {
      wait: async () => {
        waits += 1;
        // Three polls are enough to see the loop go on; then stop it.
        if (waits >= 3) stop();
      },
    },
  );
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { received, modes, endings, statuses, opened, fetched, stream, stop: () => stop(), settle };
}

describe('followEvents', () => {
  it('takes events, status updates and the end of the replay from the stream', () => {
    const feed = harness(() => new Error('not polled'));
    expect(feed.opened).toEqual([-1]);
    feed.stream.emit('oh_event', event(0, { action: 'message', args: { content: 'hi' } }));
    feed.stream.emit('oh_event', { not: 'an event' });
    feed.stream.emit('replay_done', { last_event_id: 0 });
    feed.stream.emit('status_update', {
      status_update: true,
      type: 'info',
      id: 'STATUS$READY',
      message: 'x',
    });
    expect(feed.received.map((e) => e.id)).toEqual([0]);
    expect(feed.modes).toEqual(['stream']);
    expect(feed.statuses).toEqual([{ status_update: true, type: 'info', id: 'STATUS$READY', message: 'x' }]);
    expect(feed.fetched).toEqual([]);
  });

  it('closes on `end` and reports why', () => {
    const feed = harness(() => new Error('not polled'));
    feed.stream.emit('end', { reason: 'deleted' });
    feed.stream.emit('oh_event', event(5));
    expect(feed.endings).toEqual(['deleted']);
    expect(feed.stream.closed).toBe(true);
    expect(feed.received).toEqual([]);
  });

  it('leaves a dropped connection to EventSource, which reconnects by itself', () => {
    const feed = harness(() => new Error('not polled'));
    feed.stream.fail(0);
    expect(feed.stream.closed).toBe(false);
    expect(feed.fetched).toEqual([]);
  });

  it('polls after the last event when the stream is refused, page after page', async () => {
    const all = Array.from({ length: 150 }, (_, id) => event(id));
    const feed = harness((startId) => {
      const events = all.filter((e) => e.id >= startId).slice(0, 100);
      return { events, has_more: (events.at(-1)?.id ?? startId) < 149 };
    });
    feed.stream.emit('oh_event', event(0));
    feed.stream.fail(2);
    for (let i = 0; i < 10; i++) await feed.settle();
    expect(feed.stream.closed).toBe(true);
    expect(feed.fetched).toEqual([1, 101, 150, 150]);
    expect(feed.received.map((e) => e.id)).toEqual(all.map((e) => e.id));
    expect(feed.modes).toEqual(['polling']);
  });

  it('keeps polling through errors, and ends when the conversation is gone', async () => {
    let calls = 0;
    const feed = harness(() => {
      calls += 1;
      if (calls === 1) return new ApiError('Cannot reach the service', 0);
      return new ApiError('Conversation x not found.', 404);
    });
    feed.stream.fail(2);
    for (let i = 0; i < 10; i++) await feed.settle();
    expect(feed.fetched).toEqual([0, 0]);
    expect(feed.endings).toEqual(['deleted']);
  });
});
