import { describe, expect, it } from 'vitest';
import { EventStore } from './event-store';
import { event } from '../../../../test/support/test-events';

function manualStore() {
  const flushes: (() => void)[] = [];
  const store = new EventStore((flush) => flushes.push(flush));
  const runFlushes = () => flushes.splice(0).forEach((flush) => flush());
  return { store, flushes, runFlushes };
}

describe('EventStore', () => {
  it('keeps events in id order, each once, whatever order and how often they arrive', () => {
    const { store, runFlushes } = manualStore();
    store.add([event(0), event(1), event(3)]);
    store.add([event(2), event(1), event(3), event(4)]);
    runFlushes();
    expect(store.getSnapshot().map((e) => e.id)).toEqual([0, 1, 2, 3, 4]);
    expect(store.lastId).toBe(4);
  });

  it('tells listeners once per flush, and only about changes', () => {
    const { store, flushes, runFlushes } = manualStore();
    let heard = 0;
    store.subscribe(() => (heard += 1));
    store.add([event(0)]);
    store.add([event(1)]);
    expect(flushes).toHaveLength(1);
    const before = store.getSnapshot();
    runFlushes();
    expect(heard).toBe(1);
    expect(store.getSnapshot()).not.toBe(before);

    store.add([event(1)]);
    expect(flushes).toHaveLength(0);
    const same = store.getSnapshot();
    expect(store.getSnapshot()).toBe(same);
  });

  it('is empty with lastId -1 before any event', () => {
    const { store } = manualStore();
    expect(store.getSnapshot()).toEqual([]);
    expect(store.lastId).toBe(-1);
  });
});

describe('EventStore.hold', () => {
  it('keeps a replay from listeners until released, then tells them once', () => {
    const { store, flushes, runFlushes } = manualStore();
    let heard = 0;
    store.subscribe(() => (heard += 1));
    store.hold();
    store.add([event(0), event(1)]);
    store.add([event(2), event(3)]);
    expect(flushes).toHaveLength(0);
    store.release();
    runFlushes();
    expect(heard).toBe(1);
    expect(store.getSnapshot().map((e) => e.id)).toEqual([0, 1, 2, 3]);
  });
});
