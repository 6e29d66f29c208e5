/** One dispatched server-sent event: what listeners read of a `MessageEvent`. */
export interface StreamMessage {
  readonly data: string;
  readonly lastEventId: string;
}

const CONNECTING = 0;
const OPEN = 1;
const CLOSED = 2;
const DEFAULT_RETRY_MS = 3000;
const LINE_END = /\r\n|\r|\n/g;

/**
 * `EventSource` over `fetch`: the same readyState, `onerror`, reconnection with `Last-Event-ID` after the
 * `retry:` delay, and a closed source when the answer is not a stream. It parses each network chunk in one
 * pass and calls listeners directly, without a DOM event per frame, so a replay of thousands of events
 * costs little more than reading them.
 */
export class FetchEventSource {
  readyState = CONNECTING;
  onerror: ((event: Event) => void) | null = null;
  private readonly listeners = new Map<string, ((message: StreamMessage) => void)[]>();
  private readonly abort = new AbortController();
  private retryMs = DEFAULT_RETRY_MS;
  private lastEventId = '';
  // The frame being read: its `event:` name and `data:` lines.
  private eventType = '';
  private data: string | null = null;

  /** `headers` go with every connection (the session key: the URL never carries it). */
  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string> = {},
  ) {
    void this.connect();
  }

  addEventListener(type: string, listener: (message: StreamMessage) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  close(): void {
    this.readyState = CLOSED;
    this.abort.abort();
  }

  private async connect(): Promise<void> {
    const headers: Record<string, string> = { ...this.headers, Accept: 'text/event-stream' };
    if (this.lastEventId) headers['Last-Event-ID'] = this.lastEventId;
    let response: Response;
    try {
      response = await fetch(this.url, { headers, cache: 'no-store', signal: this.abort.signal });
    } catch {
      return this.reconnect();
    }
    const type = response.headers.get('Content-Type') ?? '';
    if (response.status !== 200 || !type.startsWith('text/event-stream') || !response.body) {
      void response.body?.cancel();
      if (this.readyState === CLOSED) return;
      this.readyState = CLOSED;
      this.onerror?.(new Event('error'));
      return;
    }
    if (this.readyState === CLOSED) return void response.body.cancel();
    this.readyState = OPEN;
    try {
      await this.read(response.body);
    } catch {
      // A dropped connection: reconnect below, as after the end of the body.
    }
    this.reconnect();
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let first = true;
    this.eventType = '';
    this.data = null;
    for (;;) {
      const { value, done } = await reader.read();
      if (done || this.readyState === CLOSED) return;
      buffer += decoder.decode(value, { stream: true });
      if (first && buffer.length > 0) {
        if (buffer.startsWith('\uFEFF')) buffer = buffer.slice(1);
        first = false;
      }
      buffer = this.lines(buffer);
    }
  }

  /** Handles every complete line of `buffer`; returns the rest. */
  private lines(buffer: string): string {
    LINE_END.lastIndex = 0;
    let start = 0;
    for (let match = LINE_END.exec(buffer); match; match = LINE_END.exec(buffer)) {
      // A `\r` at the very end may be the first half of `\r\n`: wait for the next chunk.
      if (match[0] === '\r' && match.index === buffer.length - 1) break;
      this.line(buffer.slice(start, match.index));
      if (this.readyState === CLOSED) return '';
      start = LINE_END.lastIndex;
    }
    return buffer.slice(start);
  }

  private line(line: string): void {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data = this.data === null ? value : `${this.data}\n${value}`;
    else if (field === 'event') this.eventType = value;
    else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
  }

  private dispatch(): void {
    const type = this.eventType || 'message';
    const data = this.data;
    this.eventType = '';
    this.data = null;
    if (data === null) return;
    const message: StreamMessage = { data, lastEventId: this.lastEventId };
    for (const listener of this.listeners.get(type) ?? []) listener(message);
  }

  private reconnect(): void {
    if (this.readyState === CLOSED) return;
    this.readyState = CONNECTING;
    this.onerror?.(new Event('error'));
    if (this.readyState === CLOSED) return;
    setTimeout(() => {
      if (this.readyState !== CLOSED) void this.connect();
    }, this.retryMs);
  }
}
