import { expect } from 'vitest';
import { rawRequest, type TestResponse } from '../support/service';
import { EventSocket } from './agent-server-client';

/** One call as the browser makes it: where it went (`service` or `agent-server`), method, path and status. */
export interface UiCall {
  target: 'service' | 'agent-server';
  method: string;
  path: string;
  /** null for a frame sent over the websocket. */
  status: number | null;
}

/** What the UI sends besides the key: a JSON body, or a multipart one (raw bytes with their content type). */
type Body = { json: unknown } | { multipart: FormData } | undefined;

async function encode(body: Body): Promise<{ payload?: Buffer; type?: string }> {
  if (!body) return {};
  if ('json' in body) return { payload: Buffer.from(JSON.stringify(body.json)), type: 'application/json' };
  const request = new Request('http://127.0.0.1/', { method: 'POST', body: body.multipart });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    type: request.headers.get('content-type') ?? undefined,
  };
}

/**
 * The OpenHands web UI as a browser on page `origin` runs it: every call carries that Origin, and each call
 * with the key header (not CORS-safelisted) is preceded by the preflight a browser sends, which must allow
 * the origin, the method and the headers. The answers must allow the origin too, or the page cannot read them.
 */
export class OpenHandsUiClient {
  readonly calls: UiCall[] = [];

  constructor(
    readonly origin: string,
    private readonly servicePort: number,
    private readonly serviceKey: string,
  ) {}

  /** A call to the service that serves the app's API (`/api/v1/...`, `/api/conversations/{id}`). */
  service(method: string, path: string, body?: Body): Promise<TestResponse> {
    return this.call('service', `http://127.0.0.1:${this.servicePort}`, this.serviceKey, method, path, body);
  }

  /** A call to a conversation's agent server: `base` from `httpBaseUrl`, with the sandbox's key. */
  agentServer(base: string, key: string, method: string, path: string, body?: Body): Promise<TestResponse> {
    return this.call('agent-server', base, key, method, path, body);
  }

  /** The events websocket as `conversation-websocket-context.tsx` opens it: `resend_all` and the key in the query. */
  async openEvents(url: string, key: string): Promise<EventSocket> {
    const query = `resend_all=true&session_api_key=${encodeURIComponent(key)}`;
    const socket = await EventSocket.open(`${url}?${query}`, { Origin: this.origin }, null);
    this.calls.push({ target: 'agent-server', method: 'WS', path: new URL(url).pathname, status: 101 });
    return socket;
  }

  /** A user message over the events websocket, as the UI's `sendMessage` sends it. */
  say(socket: EventSocket, text: string): void {
    socket.send({ role: 'user', content: [{ type: 'text', text }] });
    this.calls.push({ target: 'agent-server', method: 'WS send', path: 'a user message', status: null });
  }

  private async call(
    target: UiCall['target'],
    base: string,
    key: string,
    method: string,
    path: string,
    body: Body,
  ): Promise<TestResponse> {
    const port = Number(new URL(base).port);
    const url = `${new URL(base).pathname.replace(/\/$/, '')}${path}`;
    const { payload, type } = await encode(body);
    const requested = type === 'application/json' ? 'content-type,x-session-api-key' : 'x-session-api-key';
    const preflight = await rawRequest(port, 'OPTIONS', url, {
      headers: {
        Origin: this.origin,
        'Access-Control-Request-Method': method,
        'Access-Control-Request-Headers': requested,
      },
    });
    this.record(target, 'OPTIONS', url, preflight.status);
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(this.origin);
    expect(String(preflight.headers['access-control-allow-methods']).split(',')).toContain(method);
    const allowed = String(preflight.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(requested.split(',')));

    const response = await rawRequest(port, method, url, {
      key,
      headers: { Origin: this.origin, ...(type ? { 'Content-Type': type } : {}) },
      ...(payload ? { rawBody: payload } : {}),
    });
    this.record(target, method, url, response.status);
    expect(response.headers['access-control-allow-origin']).toBe(this.origin);
    return response;
  }

  private record(target: UiCall['target'], method: string, path: string, status: number): void {
    this.calls.push({ target, method, path, status });
  }
}
