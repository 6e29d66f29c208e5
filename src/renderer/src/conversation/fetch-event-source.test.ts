import { afterEach, describe, expect, it, vi } from 'vitest';
import { FetchEventSource, type StreamMessage } from './fetch-event-source';

const encoder = new TextEncoder();

/** An event-stream answer whose body arrives in the given chunks. */
function streamAnswer(chunks: string[]): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
}

function until(condition: () => boolean): Promise<void> {
  return vi.waitFor(() => expect(condition()).toBe(true), { timeout: 2000, interval: 5 });
}

function record(source: FetchEventSource, ...types: string[]) {
  const seen: [string, StreamMessage][] = [];
  for (const type of types) source.addEventListener(type, (message) => seen.push([type, message]));
  return seen;
}

afterEach(() => vi.unstubAllGlobals());

describe('FetchEventSource', () => {
  it('dispatches frames split anywhere across chunks, by event name, with the last id', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        streamAnswer([
          '\uFEFFretry: 5000\n\n: ping\n\nid: 1\nevent: oh_event\nda',
          'ta: {"a":1}\r',
          '\n\r\nid: 2\nevent: oh_event\ndata: line one\ndata: line two\n\n',
          'data: plain\n\nevent: replay_done\ndata: {}\n\nevent: oh_event\n\n',
        ]),
      ),
    );
    const source = new FetchEventSource('http://127.0.0.1/stream');
    const seen = record(source, 'oh_event', 'message', 'replay_done');
    await until(() => seen.length === 4);
    source.close();
    expect(seen).toEqual([
      ['oh_event', { data: '{"a":1}', lastEventId: '1' }],
      ['oh_event', { data: 'line one\nline two', lastEventId: '2' }],
      ['message', { data: 'plain', lastEventId: '2' }],
      ['replay_done', { data: '{}', lastEventId: '2' }],
    ]);
  });

  it('reconnects with Last-Event-ID and the key header after the body ends, once the retry delay has passed', async () => {
    const requests: Headers[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        requests.push(new Headers(init.headers));
        return requests.length === 1
          ? streamAnswer(['retry: 10\n\nid: 7\nevent: oh_event\ndata: x\n\n'])
          : streamAnswer([]);
      }),
    );
    const source = new FetchEventSource('http://127.0.0.1/stream', { 'X-Session-API-Key': 'k' });
    const states: number[] = [];
    source.onerror = () => states.push(source.readyState);
    await until(() => requests.length === 2);
    source.close();
    expect(states[0]).toBe(0);
    expect(requests[0]?.get('Last-Event-ID')).toBeNull();
    expect(requests[1]?.get('Last-Event-ID')).toBe('7');
    expect(requests.map((headers) => headers.get('X-Session-API-Key'))).toEqual(['k', 'k']);
  });

  it('closes for good when the answer is not an event stream', async () => {
    const fetch = vi.fn(async () => Response.json({ detail: 'Not Found' }, { status: 404 }));
    vi.stubGlobal('fetch', fetch);
    const source = new FetchEventSource('http://127.0.0.1/stream');
    const states: number[] = [];
    source.onerror = () => states.push(source.readyState);
    await until(() => states.length === 1);
    expect(states).toEqual([2]);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('stops dispatching once closed by a listener', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => streamAnswer(['event: end\ndata: 1\n\nevent: end\ndata: 2\n\n'])),
    );
    const source = new FetchEventSource('http://127.0.0.1/stream');
    const seen: string[] = [];
    let errors = 0;
    source.onerror = () => (errors += 1);
    source.addEventListener('end', (message) => {
      seen.push(message.data);
      source.close();
    });
    await until(() => seen.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen).toEqual(['1']);
    expect(errors).toBe(0);
  });
});
