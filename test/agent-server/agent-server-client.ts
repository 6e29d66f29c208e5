import WebSocket from 'ws';
import { rawRequest, type TestResponse } from '../support/service';
import { until } from '../support/until';

/** An SDK event as a client reads it. */
export interface Frame {
  kind: string;
  id: string;
  source: string;
  [key: string]: unknown;
}

/** One line of the protocol transcript: a frame either way on the socket, or a REST call and its answer. */
export type TranscriptLine =
  | { dir: 'recv' | 'send'; frame: unknown }
  | { dir: 'rest'; call: string; body: unknown; status: number; answer: unknown };

/**
 * A client of one sandbox's agent-server endpoint, speaking the protocol as OpenHands V1 clients do: the
 * events websocket (`resend_all`, the key in the query) and the REST calls with `X-Session-API-Key`.
 */
export class AgentServerClient {
  readonly base: URL;

  constructor(
    conversationUrl: string,
    readonly conversationId: string,
    readonly key: string,
    readonly transcript: TranscriptLine[] = [],
  ) {
    this.base = new URL(conversationUrl);
  }

  get port(): number {
    return Number(this.base.port);
  }

  async rest(method: string, path: string, body?: unknown, record = true): Promise<TestResponse> {
    const response = await rawRequest(this.port, method, path, {
      key: this.key,
      ...(body === undefined ? {} : { body }),
    });
    if (record) {
      const answer = response.json ?? (response.text ? `${response.text.length} bytes` : null);
      this.transcript.push({
        dir: 'rest',
        call: `${method} ${path}`,
        body: body ?? null,
        status: response.status,
        answer,
      });
    }
    return response;
  }

  /** Opens the events socket; `record` writes its frames into the transcript. */
  connect(
    options: { query?: string; headers?: Record<string, string>; record?: boolean } = {},
  ): Promise<EventSocket> {
    const query = options.query ?? `resend_all=true&session_api_key=${encodeURIComponent(this.key)}`;
    const url = `ws://127.0.0.1:${this.port}/sockets/events/${this.conversationId}?${query}`;
    return EventSocket.open(url, options.headers ?? {}, options.record ? this.transcript : null);
  }
}

/** An open events socket: every frame received, in order. */
export class EventSocket {
  readonly frames: Frame[] = [];
  closed: { code: number; reason: string } | null = null;

  private constructor(
    private readonly ws: WebSocket,
    private readonly transcript: TranscriptLine[] | null,
  ) {
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      this.frames.push(frame);
      transcript?.push({ dir: 'recv', frame });
    });
    ws.on('close', (code, reason) => (this.closed = { code, reason: reason.toString() }));
  }

  /** Opens the socket, or rejects with the HTTP status the handshake was refused with. */
  static open(
    url: string,
    headers: Record<string, string>,
    transcript: TranscriptLine[] | null,
  ): Promise<EventSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers });
      const socket = new EventSocket(ws, transcript);
      ws.once('open', () => resolve(socket));
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => reject(new HandshakeRefused(res.statusCode ?? 0, body)));
      });
      ws.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.transcript?.push({ dir: 'send', frame: message });
    this.ws.send(JSON.stringify(message));
  }

  /** Waits for a frame (after the first `from` frames) for which `match` holds. */
  async next(match: (frame: Frame) => boolean, what: string, from = 0): Promise<Frame> {
    return (await until(
      async () => this.frames.slice(from).find(match),
      (frame) => frame !== undefined,
      what,
    )) as Frame;
  }

  /** Waits for the execution status to become `status` (after the first `from` frames). */
  status(status: string, from = 0): Promise<Frame> {
    return this.next(
      (f) => f.kind === 'ConversationStateUpdateEvent' && f.key === 'execution_status' && f.value === status,
      `execution status ${status}`,
      from,
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await new Promise<void>((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close(1000);
    });
  }

  whenClosed(): Promise<{ code: number; reason: string }> {
    return until(
      async () => this.closed,
      (closed) => closed !== null,
      'the socket to close',
    ) as Promise<{ code: number; reason: string }>;
  }
}

export class HandshakeRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`Handshake refused with ${status}: ${body}`);
  }
}

/** The frames of stored events (not the state snapshot every socket opens with). */
export function storedFrames(frames: Frame[]): Frame[] {
  return frames.filter((f) => !(f.kind === 'ConversationStateUpdateEvent' && f.key === 'full_state'));
}
