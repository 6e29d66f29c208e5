import type { Response } from 'express';
import type { V0Event } from '../../shared/api/events';
import type { StoredEventJson } from './event-log';

const PING_MS = 15_000;
/** A client that lets more than this pile up unread is cut off. */
export const MAX_QUEUED_BYTES = 1024 * 1024;

/**
 * One Server-Sent Events response: `oh_event` frames with `id:` (so `Last-Event-ID` resumes without gaps),
 * unnumbered `status_update` and `replay_done` frames, a ping comment every 15 s, and `end` before closing.
 */
export class SseStream {
  private readonly ping: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly res: Response,
    private readonly onClose: () => void,
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
    res.on('close', () => this.close());
  }

  event(event: V0Event): void {
    this.write(`id: ${event.id}\nevent: oh_event\ndata: ${JSON.stringify(event)}\n\n`);
  }

  /**
   * Stored events as one chunk of `oh_event` frames, their JSON sent as stored; resolves once the client has
   * taken the chunk in (or left), so a long replay never piles up more than one chunk.
   */
  async replay(rows: readonly StoredEventJson[]): Promise<void> {
    if (this.closed || rows.length === 0) return;
    const text = rows.map((row) => `id: ${row.id}\nevent: oh_event\ndata: ${row.json}\n\n`).join('');
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

  get isClosed(): boolean {
    return this.closed;
  }

  named(name: string, data: unknown): void {
    this.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  end(reason: string): void {
    this.named('end', { reason });
    this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.ping);
    this.res.end();
    this.onClose();
  }

  private write(text: string): void {
    if (this.closed) return;
    if (this.res.writableLength > MAX_QUEUED_BYTES) {
      this.close();
      return;
    }
    this.res.write(text);
  }
}
