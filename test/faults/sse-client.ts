import { request as httpRequest, type ClientRequest } from 'node:http';

export interface SseFrame {
  id: number | null;
  event: string;
  data: string;
}

export interface SseClient {
  frames: SseFrame[];
  /** Resolves when the server ends the stream or the connection drops. */
  ended: Promise<void>;
  close(): void;
}

/** Follows `GET /api/conversations/{id}/events/stream` and records every frame as it arrives. */
export function followEvents(port: number, key: string, conversationId: string): SseClient {
  const frames: SseFrame[] = [];
  let req!: ClientRequest;
  const ended = new Promise<void>((resolve) => {
    req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: `/api/conversations/${conversationId}/events/stream`,
        headers: { 'X-Session-API-Key': key, Accept: 'text/event-stream' },
      },
      (res) => {
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = parse(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
            if (frame) frames.push(frame);
          }
        });
        res.on('close', resolve);
        res.on('error', () => resolve());
      },
    );
    req.on('error', () => resolve());
    req.end();
  });
  return { frames, ended, close: () => req.destroy() };
}

function parse(block: string): SseFrame | null {
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
