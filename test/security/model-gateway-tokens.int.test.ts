import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faults } from '../support/scripted-llm';
import { rawRequest } from '../support/service';
import { startGatewayFixture, type GatewayFixture } from '../gateway/gateway-fixture';

/**
 * The model gateway takes only a live conversation's placeholder token, and the real provider key it calls
 * with never comes back to the sandbox: not in an answer (success, provider error, broken stream), not in a
 * log line.
 */

const CANARY = 'sk-canary-5b1e0c9d7a3f42e8b6c4d2a0f8e6c4a2';

const logLines: string[] = [];
const logger = pino(
  { level: 'debug' },
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  }),
);

let fx: GatewayFixture;
const answers: string[] = [];

beforeAll(async () => {
  fx = await startGatewayFixture({ model: 'openai/qwen-coder', logger });
  await fx.service.service.context.secrets.set('llm_api_key', CANARY);
});
afterAll(async () => {
  await fx.close();
});

/** A raw request to the gateway; its whole answer (head and body) is kept for the canary check. */
async function send(path: string, headers: Record<string, string>, body?: unknown, method = 'POST') {
  const response = await rawRequest(fx.service.service.gateway.port, method, path, {
    headers: { host: `127.0.0.1:${fx.service.service.gateway.port}`, ...headers },
    ...(body === undefined ? {} : { body }),
  });
  answers.push(JSON.stringify(response.headers), response.text);
  return response;
}

const CHAT = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] };
const MESSAGES = { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
const GEMINI = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };

describe('who the gateway answers', () => {
  it('no token: 401 in the wire format of the API called, and no provider call', async () => {
    const calls = fx.llm.calls.length;
    const chat = await send('/v1/chat/completions', {}, CHAT);
    expect(chat.status).toBe(401);
    expect(chat.json).toMatchObject({ error: { code: 'invalid_api_key' } });
    const messages = await send('/v1/messages', {}, MESSAGES);
    expect(messages.status).toBe(401);
    expect(messages.json).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    const gemini = await send('/v1beta/models/gemini-2.5-pro:generateContent', {}, GEMINI);
    expect(gemini.status).toBe(401);
    expect(gemini.json).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
    expect((await send('/v1/models', {}, undefined, 'GET')).status).toBe(401);
    expect((await send('/v1/not-a-route', {}, CHAT)).status).toBe(401);
    expect(fx.llm.calls.length).toBe(calls);
  });

  it('a wrong token, in every place a client puts its key', async () => {
    const { endpoint } = await fx.conversation();
    const last = endpoint.token.at(-1) === 'A' ? 'B' : 'A';
    const wrong = [
      `${endpoint.token.slice(0, -1)}${last}`,
      `${endpoint.token}A`,
      'dockhand-gw-',
      'sk-ant-whatever',
      '',
    ];
    for (const token of wrong) {
      expect((await send('/v1/chat/completions', { authorization: `Bearer ${token}` }, CHAT)).status).toBe(
        401,
      );
      expect((await send('/v1/messages', { 'x-api-key': token }, MESSAGES)).status).toBe(401);
      expect(
        (await send('/v1beta/models/m:generateContent', { 'x-goog-api-key': token }, GEMINI)).status,
      ).toBe(401);
      expect(
        (await send(`/v1beta/models/m:generateContent?key=${encodeURIComponent(token)}`, {}, GEMINI)).status,
      ).toBe(401);
    }
    // A Gemini-only place does not count for other APIs.
    expect((await send(`/v1/chat/completions?key=${endpoint.token}`, {}, CHAT)).status).toBe(401);
    expect((await send('/v1/chat/completions', { 'x-goog-api-key': endpoint.token }, CHAT)).status).toBe(401);
  });

  it('the session API key is not a gateway token', async () => {
    const session = fx.service.key;
    expect((await send('/v1/chat/completions', { authorization: `Bearer ${session}` }, CHAT)).status).toBe(
      401,
    );
    expect((await send('/v1/chat/completions', { 'x-session-api-key': session }, CHAT)).status).toBe(401);
    expect((await send('/v1/messages', { 'x-api-key': session }, MESSAGES)).status).toBe(401);
    expect((await send(`/v1beta/models/m:generateContent?key=${session}`, {}, GEMINI)).status).toBe(401);
    expect(
      (await send('/v1/chat/completions', { authorization: `Bearer dockhand-gw-${session}` }, CHAT)).status,
    ).toBe(401);
  });

  it("another conversation's token acts for that conversation only, and a revoked token opens nothing", async () => {
    const a = await fx.conversation();
    const b = await fx.conversation();
    fx.llm.push({ text: 'for B', usage: { input: 5, output: 1 } });
    const asB = await send('/v1/chat/completions', { authorization: `Bearer ${b.endpoint.token}` }, CHAT);
    expect(asB.status).toBe(200);
    const metrics = async (id: string) =>
      ((await fx.service.api('GET', `/api/v1/app-conversations/${id}`)).json as { metrics: unknown }).metrics;
    expect(await metrics(a.id)).toBeNull();
    expect(await metrics(b.id)).toMatchObject({ accumulated_token_usage: { prompt_tokens: 5 } });

    fx.service.service.gateway.revoke(b.id);
    const calls = fx.llm.calls.length;
    expect(
      (await send('/v1/chat/completions', { authorization: `Bearer ${b.endpoint.token}` }, CHAT)).status,
    ).toBe(401);
    expect(fx.llm.calls.length).toBe(calls);
  });

  it('a foreign Host (DNS rebinding) or any page (Origin) is refused, and no CORS header is ever sent', async () => {
    const { endpoint } = await fx.conversation();
    const auth = { authorization: `Bearer ${endpoint.token}` };
    expect((await send('/v1/chat/completions', { ...auth, host: 'evil.example:80' }, CHAT)).status).toBe(403);
    expect((await send('/v1/chat/completions', { ...auth, host: '192.168.1.5' }, CHAT)).status).toBe(403);
    expect(
      (await send('/v1/chat/completions', { ...auth, origin: 'http://127.0.0.1:5173' }, CHAT)).status,
    ).toBe(403);
    const preflight = await send(
      '/v1/chat/completions',
      { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
      undefined,
      'OPTIONS',
    );
    expect(preflight.status).toBe(403);
    fx.llm.push({ text: 'ok' });
    const allowed = await send('/v1/chat/completions', { ...auth, host: 'host.docker.internal:4000' }, CHAT);
    expect(allowed.status).toBe(200);
    for (const response of [preflight, allowed]) {
      expect(Object.keys(response.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    }
  });
});

describe('the real key never leaves the service', () => {
  it('not in an answer or a log line, through success, streams and provider errors that echo it', async () => {
    const { endpoint } = await fx.conversation();
    const auth = { authorization: `Bearer ${endpoint.token}` };
    fx.llm.push(
      { text: 'fine', headers: { 'x-echo-key': CANARY } },
      { text: 'streamed fine', headers: { 'x-echo-key': CANARY } },
      faults.status(401, `Incorrect API key provided: ${CANARY}`, { headers: { 'x-echo-key': CANARY } }),
      faults.status(400, `bad request for key ${CANARY}`),
      faults.status(500, `upstream ${CANARY} failed`),
    );
    expect((await send('/v1/chat/completions', auth, CHAT)).status).toBe(200);
    expect((await send('/v1/chat/completions', auth, { ...CHAT, stream: true })).status).toBe(200);
    expect((await send('/v1/chat/completions', auth, CHAT)).status).toBe(401);
    expect((await send('/v1/messages', { 'x-api-key': endpoint.token }, MESSAGES)).status).toBe(400);
    expect(
      (
        await send(
          '/v1beta/models/m:streamGenerateContent?alt=sse',
          { 'x-goog-api-key': endpoint.token },
          GEMINI,
        )
      ).status,
    ).toBe(500);
    // The provider was called with it: the check below is not vacuous.
    expect(fx.llm.calls.at(-1)?.auth).toBe(`Bearer ${CANARY}`);
    const answered = answers.join('\n');
    expect(answered).toContain('<secret_hidden>');
    expect(answered).not.toContain(CANARY);
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('')).toContain('Model gateway');
    expect(logLines.filter((line) => line.includes(CANARY))).toEqual([]);
  });
});
