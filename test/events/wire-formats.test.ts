import { describe, expect, it } from 'vitest';
import { sdkEvents } from '../../src/service/agent-server/sdk-events';
import type { DockhandEvent } from '../../src/service/events/model/dockhand-event';
import { fromV0, toV0 } from '../../src/service/events/model/v0-codec';
import { socketIoEvent, socketIoReplay, sseFrame } from '../../src/service/routes/v0/v0-events';
import { v1Event } from '../../src/service/routes/v1/v1-events';
import { FIXTURES, readFixture } from './event-fixtures';

/** What a socket.io client gets on connecting: the replay with agent states held back but the last. */
function socketIoReplayOf(events: DockhandEvent[]): unknown[] {
  let lastState: DockhandEvent | undefined;
  const sent: DockhandEvent[] = [];
  for (const event of events) {
    const replayed = socketIoReplay(event);
    if (replayed === 'hold') lastState = event;
    else if (replayed === 'send') sent.push(event);
  }
  return [...sent, ...(lastState ? [lastState] : [])].map(socketIoEvent).filter((e) => e !== null);
}

describe.each(FIXTURES)('the recorded wire formats of %s', (file) => {
  const fixture = readFixture(file);
  const events = fixture.v0.map(fromV0);

  it('reads every V0 event as a modelled kind, and maps it back to V0 unchanged', () => {
    expect(events.filter((e) => e.kind === 'legacy' || e.storedV0)).toEqual([]);
    expect(events.map(toV0)).toEqual(fixture.v0);
  });

  it('gives the recorded SSE frames and socket.io replay', () => {
    const frames = events.map(sseFrame);
    expect(frames.map((f) => Number(/^id: (\d+)\n/.exec(f)?.[1]))).toEqual(fixture.sse.map((e) => e.id));
    expect(frames.map((f) => JSON.parse(/\ndata: (.*)\n\n$/.exec(f)?.[1] ?? 'null'))).toEqual(fixture.sse);
    expect(socketIoReplayOf(events)).toEqual(fixture.socketio);
  });

  it('gives the recorded V1 events and SDK events', () => {
    expect(events.map((e) => v1Event(fixture.conversationId, e))).toEqual(fixture.v1);
    expect(sdkEvents(fixture.conversationId, events)).toEqual(fixture.sdk);
  });
});
