import type { V0Event } from '../../../shared/api/events';

/** Runs `flush` soon, once for any number of calls before it runs. */
export type Scheduler = (flush: () => void) => void;

const nextFrame: Scheduler = (flush) => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(flush);
  else setTimeout(flush, 16);
};

/**
 * The events of one conversation in id order, each once however often it arrives (a replay after a
 * reconnect, a poll overlapping the stream). Listeners hear about changes at most once a frame, so a
 * replay of thousands of events renders once, not once per event.
 */
export class EventStore {
  private events: V0Event[] = [];
  private snapshot: readonly V0Event[] = [];
  private readonly listeners = new Set<() => void>();
  private pending = false;
  private holding = false;

  constructor(private readonly schedule: Scheduler = nextFrame) {}

  /** The highest id held, -1 when empty: the stream and the poll continue after it. */
  get lastId(): number {
    return this.events.at(-1)?.id ?? -1;
  }

  add(incoming: readonly V0Event[]): void {
    let changed = false;
    for (const event of incoming) changed = this.insert(event) || changed;
    if (changed) this.notify();
  }

  /**
   * Keeps what arrives from listeners until `release`: a replay of thousands of events over many frames is
   * then laid out once, instead of once a frame with every event so far.
   */
  hold(): void {
    this.holding = true;
  }

  release(): void {
    if (!this.holding) return;
    this.holding = false;
    if (this.events.length !== this.snapshot.length) this.notify();
  }

  private notify(): void {
    if (this.holding || this.pending) return;
    this.pending = true;
    this.schedule(() => {
      this.pending = false;
      this.snapshot = [...this.events];
      for (const listener of this.listeners) listener();
    });
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The events as of the last notification; the same array until the next one. */
  readonly getSnapshot = (): readonly V0Event[] => this.snapshot;

  private insert(event: V0Event): boolean {
    if (event.id > this.lastId) {
      this.events.push(event);
      return true;
    }
    let low = 0;
    let high = this.events.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.events[middle]?.id ?? 0) < event.id) low = middle + 1;
      else high = middle;
    }
    if (this.events[low]?.id === event.id) return false;
    this.events.splice(low, 0, event);
    return true;
  }
}
