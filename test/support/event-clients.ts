import { request as httpRequest, type IncomingMessage } from 'node:http';
import { io as ioClient, type Socket } from 'socket.io-client';
import type { TestService } from './service';

/** One SSE frame with data; `event` is `message` when the frame names none. */
export interface SseFrame {
  id: number | null;
  event: string;
  data: string;
}

/** A live SSE stream of one conversation's events, split into frames as they arrive. */
export interface SseStream {
  response: IncomingMessage;
  frames: string[];
  /** The `id:` of every frame received so far, in order. */
  ids(): number[];
  /** The frames received so far that carry data, parsed. */
  events(): SseFrame[];
  /** Resolves when the server ends the stream or the connection drops. */
  ended: Promise<void>;
  close(): void;
}

/** Opens the stream after `lastEventId`, with the key in the query (as EventSource must) or in the header. */
export async function openSseStream(
  service: Pick<TestService, 'port' | 'key'>,
  conversationId: string,
  options: { lastEventId?: number; keyIn?: 'query' | 'header' } = {},
): Promise<SseStream> {
  const path = `/api/conversations/${conversationId}/events/stream`;
  const inHeader = options.keyIn === 'header';
  const request = httpRequest({
    host: '127.0.0.1',
    port: service.port,
    path: inHeader ? path : `${path}?session_api_key=${encodeURIComponent(service.key)}`,
    headers: {
      ...(inHeader ? { 'X-Session-API-Key': service.key } : {}),
      ...(options.lastEventId === undefined ? {} : { 'Last-Event-ID': String(options.lastEventId) }),
    },
  });
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    request.on('response', resolve).on('error', reject).end();
  });
  const frames: string[] = [];
  let buffer = '';
  response.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const parts = buffer.split('\n\n');
    buffer = parts.pop() ?? '';
    frames.push(...parts);
  });
  const ended = new Promise<void>((resolve) => {
    response.on('end', resolve);
    response.on('close', resolve);
    response.on('error', () => resolve());
  });
  return {
    response,
    frames,
    ids: () => frames.filter((f) => f.startsWith('id: ')).map((f) => Number(/^id: (\d+)/.exec(f)?.[1])),
    events: () => frames.map(parseFrame).filter((frame) => frame !== null),
    ended,
    close: () => request.destroy(),
  };
}

function parseFrame(block: string): SseFrame | null {
  let id: number | null = null;
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('id: ')) id = Number(line.slice(4));
    else if (line.startsWith('event: ')) event = line.slice(7);
    else if (line.startsWith('data: ')) data.push(line.slice(6));
  }
  return data.length ? { id, event, data: data.join('\n') } : null;
}

/** An OpenHands socket.io client of one conversation, collecting every `oh_event`. */
export interface EventSocket {
  socket: Socket;
  received: Record<string, unknown>[];
  /** The ids of the stored events received so far (status updates have none). */
  ids(): number[];
}

export function openEventSocket(
  service: TestService,
  conversationId: string,
  latestEventId = -1,
  key: string | null = service.key,
): EventSocket {
  const socket = ioClient(service.url, {
    query: {
      conversation_id: conversationId,
      latest_event_id: String(latestEventId),
      ...(key === null ? {} : { session_api_key: key }),
    },
    transports: ['websocket'],
    reconnection: false,
  });
  const received: Record<string, unknown>[] = [];
  socket.on('oh_event', (event: Record<string, unknown>) => received.push(event));
  return {
    socket,
    received,
    ids: () => received.filter((e) => typeof e.id === 'number').map((e) => e.id as number),
  };
}

/** The `status_update` messages of a conversation as they arrive, from once the socket has connected. */
export async function followStatusMessages(
  service: TestService,
  conversationId: string,
): Promise<{ messages(): string[]; close(): void }> {
  const { socket, received } = openEventSocket(service, conversationId);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return {
    messages: () =>
      received.flatMap((e) => (e.status_update && typeof e.message === 'string' ? [e.message] : [])),
    close: () => socket.close(),
  };
}
