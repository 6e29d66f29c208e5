import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, startTestService, type TestResponse, type TestService } from '../support/service';

const UNAUTHORIZED = { status: 401, body: { detail: 'Unauthorized' } };

function outcome(response: TestResponse) {
  return { status: response.status, body: response.json };
}

describe('authentication, Host, Origin and request bodies', () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(async () => {
    await svc.close();
  });

  describe('session key', () => {
    it('refuses keyed routes without a key or with a wrong one', async () => {
      // A service of its own: these 14 failures would otherwise count towards the 20-failure block.
      const own = await startTestService();
      try {
        for (const [method, path] of [
          ['GET', '/api/settings'],
          ['POST', '/api/settings'],
          ['GET', '/api/secrets'],
          ['DELETE', '/api/secrets/X'],
          ['GET', '/api/options/models'],
          ['GET', '/server_info'],
          ['POST', '/api/session-api-key/rotate'],
        ] as const) {
          expect(outcome(await own.api(method, path, { key: null })), `${method} ${path}`).toEqual(
            UNAUTHORIZED,
          );
          expect(outcome(await own.api(method, path, { key: `${own.key}x` }))).toEqual(UNAUTHORIZED);
        }
      } finally {
        await own.close();
      }
    });

    it('checks the key before routing: unknown /api paths are 401 unkeyed and 404 keyed', async () => {
      expect(outcome(await svc.api('GET', '/api/nope', { key: null }))).toEqual(UNAUTHORIZED);
      expect(outcome(await svc.api('GET', '/api/nope'))).toEqual({
        status: 404,
        body: { detail: 'Not Found' },
      });
      expect(outcome(await svc.api('GET', '/api/v1/nope'))).toEqual({
        status: 404,
        body: { detail: 'Not Found' },
      });
    });

    it('answers unknown paths outside the API with 401 unkeyed and a JSON 404 keyed (no SPA fallback)', async () => {
      const unkeyed = await svc.api('GET', '/nope', { key: null, headers: { Accept: 'text/html' } });
      expect(outcome(unkeyed)).toEqual(UNAUTHORIZED);
      const response = await svc.api('GET', '/nope', { headers: { Accept: 'text/html' } });
      expect(outcome(response)).toEqual({ status: 404, body: { detail: 'Not Found' } });
      expect(response.headers['content-type']).toMatch(/^application\/json/);
    });

    it('answers 405 for a known path with another method', async () => {
      const notAllowed = { status: 405, body: { detail: 'Method Not Allowed' } };
      expect(outcome(await svc.api('DELETE', '/api/settings'))).toEqual(notAllowed);
      expect(outcome(await svc.api('GET', '/api/secrets/MY_TOKEN'))).toEqual(notAllowed);
      expect(outcome(await svc.api('PUT', '/api/options/models'))).toEqual(notAllowed);
      expect(outcome(await svc.api('POST', '/alive'))).toEqual(notAllowed);
    });

    it('sends no-store JSON on every answer', async () => {
      for (const response of [
        await svc.api('GET', '/alive', { key: null }),
        await svc.api('GET', '/api/settings', { key: null }),
        await svc.api('GET', '/api/nope'),
      ]) {
        expect(response.headers['cache-control']).toBe('no-store');
        expect(response.headers['content-type']).toMatch(/^application\/json/);
      }
    });
  });

  describe('Host header', () => {
    it('accepts only loopback names on the service port', async () => {
      for (const host of [`127.0.0.1:${svc.port}`, `localhost:${svc.port}`, `[::1]:${svc.port}`]) {
        expect((await svc.api('GET', '/alive', { headers: { Host: host } })).status, host).toBe(200);
      }
      const forbidden = { status: 403, body: { detail: 'Invalid host header' } };
      for (const host of [
        `evil.example:${svc.port}`,
        'evil.example',
        `127.0.0.1:${svc.port + 1}`,
        '127.0.0.1',
        `127.0.0.1.nip.io:${svc.port}`,
      ]) {
        expect(outcome(await svc.api('GET', '/alive', { headers: { Host: host } })), host).toEqual(forbidden);
      }
    });

    it('checks the Host before the key', async () => {
      const response = await svc.api('GET', '/api/settings', {
        key: null,
        headers: { Host: `evil.example:${svc.port}` },
      });
      expect(outcome(response)).toEqual({ status: 403, body: { detail: 'Invalid host header' } });
    });
  });

  describe('CORS', () => {
    const preflight = (origin: string) =>
      svc.api('OPTIONS', '/api/settings', {
        key: null,
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type,x-session-api-key',
        },
      });

    it('answers a preflight from its own origins with 204 and the allowed methods and headers', async () => {
      for (const origin of [
        `http://localhost:${svc.port}`,
        `http://127.0.0.1:${svc.port}`,
        `http://[::1]:${svc.port}`,
        'app://dockhand',
      ]) {
        const response = await preflight(origin);
        expect(response.status, origin).toBe(204);
        expect(response.text).toBe('');
        expect(response.headers).toMatchObject({
          'access-control-allow-origin': origin,
          'access-control-allow-methods': 'GET,POST,PUT,PATCH,DELETE,OPTIONS',
          'access-control-allow-headers': 'Content-Type, X-Session-API-Key, Last-Event-ID',
          'access-control-max-age': '600',
        });
        expect(response.headers.vary).toMatch(/\bOrigin\b/);
        expect(response.headers['access-control-allow-credentials']).toBeUndefined();
      }
    });

    it('refuses a preflight from any other origin, other local ports and null included', async () => {
      for (const origin of [
        'http://localhost:5173',
        `http://127.0.0.1:${svc.port + 1}`,
        'https://evil.example',
        'http://localhost.evil.example',
        'https://localhost:5173',
        'null',
      ]) {
        const response = await preflight(origin);
        expect(outcome(response), origin).toEqual({ status: 403, body: { detail: 'Origin not allowed' } });
        expect(response.headers['access-control-allow-origin']).toBeUndefined();
        expect(response.headers.vary).toMatch(/\bOrigin\b/);
      }
    });

    it('refuses keyed requests from a foreign origin, and echoes its own', async () => {
      const foreign = await svc.api('POST', '/api/settings', {
        body: { language: 'en' },
        headers: { Origin: 'https://evil.example' },
      });
      expect(outcome(foreign)).toEqual({ status: 403, body: { detail: 'Origin not allowed' } });

      const own = `http://localhost:${svc.port}`;
      const local = await svc.api('GET', '/api/secrets', { headers: { Origin: own } });
      expect(outcome(local)).toEqual({ status: 200, body: { custom_secrets: [] } });
      expect(local.headers).toMatchObject({
        'access-control-allow-origin': own,
        'access-control-expose-headers': 'Retry-After',
      });
      expect(local.headers.vary).toMatch(/\bOrigin\b/);
    });

    it('lets requests without an Origin (command-line tools) through', async () => {
      const response = await svc.api('GET', '/api/secrets');
      expect(response.status).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('request bodies', () => {
    const post = (path: string, rawBody: string | Buffer, contentType = 'application/json') =>
      svc.api('POST', path, { rawBody, headers: { 'Content-Type': contentType } });

    it('answers malformed JSON with 422 json_invalid at the character offset', async () => {
      for (const [text, offset] of [
        ['{', 1],
        ['{"language": "en",}', 18],
        ['{"language": en}', 13],
      ] as const) {
        expect(outcome(await post('/api/settings', text)), text).toEqual({
          status: 422,
          body: {
            detail: [
              {
                type: 'json_invalid',
                loc: ['body', offset],
                msg: 'JSON decode error',
                input: {},
                ctx: { error: expect.any(String) },
              },
            ],
          },
        });
      }
    });

    it('answers a body that is not JSON with 415', async () => {
      for (const type of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
      ]) {
        expect(outcome(await post('/api/secrets', 'name=A&value=b', type)), type).toEqual({
          status: 415,
          body: { detail: 'Unsupported Media Type: the body must be application/json' },
        });
      }
      const untyped = await svc.api('POST', '/api/settings', { rawBody: '{"language":"en"}' });
      expect(untyped.status).toBe(415);
    });

    it('accepts JSON with a charset and +json types', async () => {
      expect((await post('/api/settings', '{}', 'application/json; charset=utf-8')).status).toBe(200);
      expect((await post('/api/settings', '{}', 'application/merge-patch+json')).status).toBe(200);
    });

    it('reports a missing or non-object body as FastAPI does', async () => {
      expect(outcome(await svc.api('POST', '/api/secrets'))).toEqual({
        status: 422,
        body: { detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] },
      });
      expect(outcome(await post('/api/secrets', '[1]'))).toEqual({
        status: 422,
        body: {
          detail: [
            {
              type: 'model_attributes_type',
              loc: ['body'],
              msg: 'Input should be a valid dictionary or object to extract fields from',
              input: [1],
            },
          ],
        },
      });
    });

    it('refuses a body over 10 MiB with 413', async () => {
      const body = `{"language":"${'a'.repeat(11 * 1024 * 1024)}"}`;
      expect(outcome(await post('/api/settings', body))).toEqual({
        status: 413,
        body: { detail: 'Request body too large (max 10485760 bytes)' },
      });
      expect((await svc.api('GET', '/alive')).status).toBe(200);
    });

    it('checks the key before the size, and the size before the content type', async () => {
      const body = 'a'.repeat(11 * 1024 * 1024);
      const unkeyed = await svc.api('POST', '/api/settings', {
        key: null,
        rawBody: body,
        headers: { 'Content-Type': 'text/plain' },
      });
      expect(outcome(unkeyed)).toEqual(UNAUTHORIZED);
      expect(outcome(await post('/api/settings', body, 'text/plain'))).toEqual({
        status: 413,
        body: { detail: 'Request body too large (max 10485760 bytes)' },
      });
    });

    it('accepts a body just under 10 MiB', async () => {
      const padding = 10 * 1024 * 1024 - '{"language":""}'.length;
      const response = await post('/api/settings', `{"language":"${'a'.repeat(padding)}"}`);
      expect(outcome(response)).toEqual({ status: 200, body: { message: 'Settings stored' } });
    });
  });
});

describe('failed authentication', () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(async () => {
    await svc.close();
  });

  it('throttles an address with 429 after 20 failed attempts, and still serves the right key', async () => {
    for (let attempt = 1; attempt <= 20; attempt += 1) {
      expect(outcome(await svc.api('GET', '/api/settings', { key: `wrong-key-${attempt}` }))).toEqual(
        UNAUTHORIZED,
      );
    }
    const blocked = await svc.api('GET', '/api/settings', { key: 'wrong-key-21' });
    expect(outcome(blocked)).toEqual({ status: 429, body: { detail: 'Too many requests' } });
    expect(blocked.headers['retry-after']).toBe('1');
    expect(outcome(await svc.api('GET', '/api/secrets'))).toEqual({
      status: 200,
      body: { custom_secrets: [] },
    });
    expect(outcome(await rawRequest(svc.port, 'GET', '/alive'))).toEqual({
      status: 200,
      body: { status: 'ok' },
    });
  });
});
