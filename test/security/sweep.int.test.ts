import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service';
import { type OpenApiDocument, type Operation, operationsOf } from './fuzz-requests';
import { addressSpreader, loopbackRequest as request } from './loopback-request';
import { socketHandshake } from './socket-handshake';

const OPEN = ['GET /alive', 'GET /health', 'GET /api/openapi.json'];
const SSE = '/api/conversations/x/events/stream';
const SOCKET_POLL = '/socket.io/?EIO=4&transport=polling&conversation_id=x';

const concrete = (op: Operation) => op.path.replace(/\{\w+\}/g, 'x');

describe('security sweep over every route of the OpenAPI document', () => {
  let svc: TestService;
  let keyed: Operation[];
  /** A fresh loopback source address for every 10 deliberate failures. */
  const nextAddress = addressSpreader();

  beforeAll(async () => {
    svc = await startTestService();
    const doc = (await svc.api('GET', '/api/openapi.json', { key: null })).json as OpenApiDocument;
    const all = operationsOf(doc);
    keyed = all.filter((op) => !OPEN.includes(`${op.method} ${op.path}`));
    expect(all.length - keyed.length).toBe(OPEN.length);
  });
  afterAll(async () => {
    await svc.close();
  });

  it('answers 401 Unauthorized on every keyed route without a key and with a wrong one', async () => {
    const refused: string[] = [];
    for (const [i, op] of keyed.entries()) {
      // Wrong keys differ per route: failures are throttled per presented key as well as per address.
      for (const key of [null, `${svc.key}${i}`, `${svc.key.slice(0, -1)}!${i}`, '']) {
        const headers: Record<string, string> = key === null ? {} : { 'X-Session-API-Key': key };
        const answer = await request(svc.port, op.method, concrete(op), headers, nextAddress());
        if (answer.status !== 401 || JSON.stringify(answer.json) !== '{"detail":"Unauthorized"}') {
          refused.push(`${op.method} ${op.path} key=${key === null ? 'none' : 'wrong'}: ${answer.status}`);
        }
      }
    }
    expect(refused).toEqual([]);
    expect(keyed.length).toBeGreaterThan(60);
  });

  it('refuses the SSE stream with a wrong key in the query, and socket.io with connect_error', async () => {
    const sse = await request(svc.port, 'GET', `${SSE}?session_api_key=wrong`, {}, nextAddress());
    expect({ status: sse.status, body: sse.json }).toEqual({ status: 401, body: { detail: 'Unauthorized' } });
    for (const key of [undefined, 'wrong']) {
      expect(await socketHandshake(svc.url, { key })).toBe('invalid_session_api_key');
    }
  });

  it('answers 403 Invalid host header on every route, SSE and socket.io included, before the key', async () => {
    const wrong: string[] = [];
    const paths = [...keyed.map((op) => [op.method, concrete(op)]), ['GET', SSE], ['GET', SOCKET_POLL]];
    for (const [method = 'GET', path = '/'] of [...paths, ['GET', '/alive'], ['GET', '/api/openapi.json']]) {
      for (const host of [`evil.example:${svc.port}`, `127.0.0.1.nip.io:${svc.port}`, 'localhost']) {
        const answer = await request(svc.port, method, path, { Host: host, 'X-Session-API-Key': svc.key });
        if (answer.status !== 403 || JSON.stringify(answer.json) !== '{"detail":"Invalid host header"}') {
          wrong.push(`${method} ${path} Host ${host}: ${answer.status}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('refuses cross-origin preflights and simple requests from foreign and other local origins on every route', async () => {
    const wrong: string[] = [];
    const paths = [...keyed.map((op) => [op.method, concrete(op)]), ['GET', SSE], ['GET', SOCKET_POLL]];
    for (const [method = 'GET', path = '/'] of paths) {
      // Another local port stands for an app the agent serves from a sandbox, or any other local server.
      const otherLocal = `http://localhost:${svc.port + 1}`;
      for (const origin of [
        'https://evil.example',
        'null',
        'http://localhost.evil.example',
        'file://',
        otherLocal,
      ]) {
        const preflight = await request(svc.port, 'OPTIONS', path, {
          Origin: origin,
          'Access-Control-Request-Method': method,
          'Access-Control-Request-Headers': 'x-session-api-key',
        });
        const simple = await request(svc.port, method, path, {
          Origin: origin,
          'X-Session-API-Key': svc.key,
        });
        for (const [kind, answer] of [
          ['preflight', preflight],
          ['request', simple],
        ] as const) {
          if (
            answer.status !== 403 ||
            JSON.stringify(answer.json) !== '{"detail":"Origin not allowed"}' ||
            answer.headers['access-control-allow-origin'] !== undefined
          ) {
            wrong.push(`${kind} ${method} ${path} from ${origin}: ${answer.status}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
