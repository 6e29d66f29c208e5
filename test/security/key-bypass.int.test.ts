import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service';
import { type OpenApiDocument, type Operation, operationsOf } from './fuzz-requests';
import { addressSpreader, loopbackRequest } from './loopback-request';
import { pathSpellings } from './path-spellings';

const OPEN = ['GET /alive', 'GET /health', 'GET /api/openapi.json'];
/** Bodies that would store something if a handler ran; other writes get `{}`. */
const HARMFUL_BODIES: Record<string, unknown> = {
  'POST /api/settings': { language: 'en', llm_model: 'attacker/model' },
  'POST /api/secrets': { name: 'PLANTED', value: 'attacker' },
  'POST /api/add-git-providers': { provider_tokens: {}, mcp_config: null },
  'POST /api/conversations': { initial_user_msg: 'attack' },
};
/** Keyed reads whose answers show anything a handler could have changed. */
const STATE = [
  '/api/settings',
  '/api/secrets',
  '/api/conversations',
  '/api/v1/sandboxes/search',
  '/api/v1/app-conversations/search',
];

const UNAUTHORIZED = { status: 401, body: { detail: 'Unauthorized' } };
const MALFORMED = { status: 400, body: { detail: 'Malformed HTTP request' } };

const concrete = (op: Operation) => op.path.replace(/\{\w+\}/g, 'x');

describe('key bypass through other spellings of a path', () => {
  let svc: TestService;
  let keyed: Operation[];
  const nextAddress = addressSpreader();

  async function state(): Promise<unknown[]> {
    const answers = await Promise.all(STATE.map((path) => svc.api('GET', path)));
    return [svc.service.context.sessionKey.current, ...answers.map((a) => [a.status, a.json])];
  }

  beforeAll(async () => {
    svc = await startTestService();
    const doc = (await svc.api('GET', '/api/openapi.json', { key: null })).json as OpenApiDocument;
    keyed = operationsOf(doc).filter((op) => !OPEN.includes(`${op.method} ${op.path}`));
  });
  afterAll(async () => {
    await svc.close();
  });

  it('answers 401 to every spelling of every keyed operation without a key, and no handler runs', async () => {
    const before = await state();
    const reached: string[] = [];
    let sent = 0;
    for (const op of keyed) {
      const operation = `${op.method} ${op.path}`;
      const body = op.method === 'GET' ? undefined : JSON.stringify(HARMFUL_BODIES[operation] ?? {});
      const headers: Record<string, string> = body ? { 'Content-Type': 'application/json' } : {};
      for (const spelling of pathSpellings(concrete(op))) {
        const answer = await loopbackRequest(svc.port, op.method, spelling, headers, nextAddress(), body);
        sent += 1;
        // A target that does not start with `/` is refused by the HTTP parser before any of our code.
        const expected = spelling.startsWith('/') ? UNAUTHORIZED : MALFORMED;
        if (JSON.stringify({ status: answer.status, body: answer.json }) !== JSON.stringify(expected)) {
          reached.push(`${op.method} ${spelling}: ${answer.status}`);
        }
      }
    }
    expect(reached).toEqual([]);
    expect(keyed.length).toBeGreaterThan(60);
    expect(sent).toBeGreaterThan(keyed.length * 20);
    // The key was not rotated, and no setting, secret, conversation or sandbox was stored.
    expect(await state()).toEqual(before);
  });

  it('matches letter case and slashes exactly with the key too: another spelling is another (unknown) path', async () => {
    const settingsNotFound = { status: 404, body: { detail: 'Settings not found' } };
    const notFound = { status: 404, body: { detail: 'Not Found' } };
    const outcome = async (method: string, path: string) => {
      const answer = await loopbackRequest(svc.port, method, path, { 'X-Session-API-Key': svc.key });
      return { status: answer.status, body: answer.json };
    };
    expect(await outcome('GET', '/api/settings')).toEqual(settingsNotFound);
    expect(await outcome('GET', '//api//./x/../settings/')).toEqual(settingsNotFound);
    expect(await outcome('GET', '/%61pi/settings')).toEqual(settingsNotFound);
    expect(await outcome('GET', '/API/settings')).toEqual(notFound);
    expect(await outcome('GET', '/api%2Fsettings')).toEqual(notFound);
    expect(await outcome('POST', '/API/session-api-key/rotate')).toEqual(notFound);
    expect(svc.service.context.sessionKey.current).toBe(svc.key);
  });

  it('takes the session_api_key query parameter on the event stream only', async () => {
    const query = `session_api_key=${encodeURIComponent(svc.key)}`;
    const stream = await loopbackRequest(svc.port, 'GET', `/api/conversations/x/events/stream?${query}`, {});
    expect(stream.status).toBe(404);
    for (const [method, path] of [
      ['GET', `/api/settings?${query}`],
      ['GET', `/api/conversations/x/events?${query}`],
      ['GET', `/API/conversations/x/events/stream?${query}`],
      ['POST', `/api/conversations/x/events/stream?${query}`],
      ['POST', `/api/session-api-key/rotate?${query}`],
    ] as const) {
      const answer = await loopbackRequest(svc.port, method, path, {}, nextAddress());
      expect({ status: answer.status, body: answer.json }, `${method} ${path}`).toEqual({
        status: 401,
        body: { detail: 'Unauthorized' },
      });
    }
    expect(svc.service.context.sessionKey.current).toBe(svc.key);
  });

  it('serves the open list without a key, under its own spellings only', async () => {
    for (const path of ['/alive', '//alive/', '/./health', '/api/openapi.json', '/%61live']) {
      expect((await loopbackRequest(svc.port, 'GET', path, {})).status, path).toBe(200);
    }
    for (const path of ['/ALIVE', '/Health', '/api/OPENAPI.json', '/api%2Fopenapi.json', '/alive.json']) {
      expect((await loopbackRequest(svc.port, 'GET', path, {}, nextAddress())).status, path).toBe(401);
    }
    expect((await loopbackRequest(svc.port, 'POST', '/alive', {}, nextAddress())).status).toBe(401);
  });
});
