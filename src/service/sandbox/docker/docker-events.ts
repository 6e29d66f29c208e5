import type { Logger } from 'pino';
import type { DockerConnection } from './docker-status';
import { installFilter, LABEL } from './labels';

/** Container events that can change a sandbox's status. */
const WATCHED_EVENTS = ['start', 'die', 'oom', 'pause', 'unpause', 'destroy'];
const MIN_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

interface DockerEvent {
  Actor?: { Attributes?: Record<string, string> };
}

export interface EventHandlers {
  /** Something happened to a sandbox's container. */
  changed(sandboxId: string): void;
  /** The engine was lost, or came back after being lost. */
  connectionChanged(connected: boolean): void;
}

/**
 * Follows the engine's container events for this install's labels, and reconnects (with backoff) when the
 * engine goes away, so sandbox statuses stay live without polling.
 */
export class DockerEventWatcher {
  private stream: NodeJS.ReadableStream | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryMs = MIN_RETRY_MS;
  private connected = true;
  private closed = false;

  constructor(
    private readonly connection: DockerConnection,
    private readonly instanceId: string,
    private readonly handlers: EventHandlers,
    private readonly logger: Logger,
  ) {}

  start(): void {
    void this.connect();
  }

  close(): void {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.dropStream();
  }

  private async connect(): Promise<void> {
    this.retryTimer = null;
    let stream: NodeJS.ReadableStream;
    try {
      stream = await this.connection.client.getEvents({
        filters: { type: ['container'], label: installFilter(this.instanceId), event: WATCHED_EVENTS },
      });
    } catch (error) {
      this.lost(error);
      return;
    }
    if (this.closed) {
      (stream as NodeJS.ReadableStream & { destroy(): void }).destroy();
      return;
    }
    this.stream = stream;
    this.retryMs = MIN_RETRY_MS;
    let buffer = '';
    stream.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        this.dispatch(buffer.slice(0, newline));
        buffer = buffer.slice(newline + 1);
      }
    });
    const onEnd = (error?: unknown) => {
      if (this.stream === stream) this.lost(error ?? new Error('the event stream ended'));
    };
    stream.on('end', () => onEnd());
    stream.on('close', () => onEnd());
    stream.on('error', onEnd);
    if (!this.connected) {
      this.connected = true;
      this.logger.info({ endpoint: this.connection.endpoint.url }, 'Docker is available again');
      this.handlers.connectionChanged(true);
    }
  }

  private dispatch(line: string): void {
    if (!line.trim()) return;
    try {
      const event = JSON.parse(line) as DockerEvent;
      const sandboxId = event.Actor?.Attributes?.[LABEL.sandboxId];
      if (sandboxId) this.handlers.changed(sandboxId);
    } catch (error) {
      this.logger.warn({ err: error }, 'Unreadable Docker event');
    }
  }

  private dropStream(): void {
    const stream = this.stream as (NodeJS.ReadableStream & { destroy(): void }) | null;
    this.stream = null;
    stream?.destroy();
  }

  private lost(error: unknown): void {
    this.dropStream();
    if (this.closed) return;
    if (this.connected) {
      this.connected = false;
      this.logger.warn(
        { endpoint: this.connection.endpoint.url, err: error },
        'Lost the Docker engine; retrying in the background',
      );
      this.handlers.connectionChanged(false);
    }
    this.retryTimer = setTimeout(() => void this.connect(), this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }
}
