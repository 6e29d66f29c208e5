import type { Response } from 'express';
import type { EventSink } from './event-follower';
import type { DockhandEvent } from './model/dockhand-event';

const PING_MS = 15_000;

/**
 * One Server-Sent Events response, the sink of an event follower: each event as the frame `frame` makes of it
 * (the route's wire format, numbered so `Last-Event-ID` resumes without gaps), each replayed chunk in one
 * write, unnumbered
 * `replay_done` (once caught up) and `status_update` frames, a ping comment every 15 s, and `end` before closing.
 */
export class SseStream implements EventSink {
  private readonly ping: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly res: Response,
    private readonly onClose: () => void,
    private readonly frame: (event: DockhandEvent) => string,
  ) {
    res.status(200).set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      'X-Accel-Buffering': 'no',
      Connection: 'keep-alive',
    });
    res.flushHeaders();
    this.write('retry: 3000\n\n');
    this.ping = setInterval(() => this.write(': ping\n\n'), PING_MS);
    res.on('close', () => this.finish());
  }

  async replay(events: readonly DockhandEvent[]): Promise<void> {
    if (this.closed || events.length === 0) return;
    const text = events.map(this.frame).join('');
    if (this.res.write(text)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }

  caughtUp(lastId: number): void {
    this.named('replay_done', { last_event_id: lastId });
  }

  live(event: DockhandEvent): void {
    this.write(this.frame(event));
  }

  queuedBytes(): number {
    return this.res.writableLength;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  named(name: string, data: unknown): void {
    this.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** Sends `end` with the reason, then closes. */
  close(reason: string): void {
    this.named('end', { reason });
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.ping);
    this.res.end();
    this.onClose();
  }

  private write(text: string): void {
    if (!this.closed) this.res.write(text);
  }
}
