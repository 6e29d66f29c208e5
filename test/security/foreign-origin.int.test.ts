import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service';
import { loopbackRequest } from './loopback-request';
import { socketHandshake } from './socket-handshake';

const FORBIDDEN = { status: 403, body: { detail: 'Origin not allowed' } };
/** socket.io's answer once key and origin pass: only the conversation is unknown. */
const ADMITTED = 'Conversation x not found';

describe('calls from pages of other origins', () => {
  let svc: TestService;

  const call = async (method: string, path: string, origin: string, extra: Record<string, string> = {}) => {
    const answer = await loopbackRequest(svc.port, method, path, { Origin: origin, ...extra });
    return {
      status: answer.status,
      body: answer.json,
      allowOrigin: answer.headers['access-control-allow-origin'],
    };
  };

  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(async () => {
    await svc.close();
  });

  it('refuses a sandbox app or any other local port on HTTP, SSE and socket.io, before the key is used', async () => {
    const foreign = [
      `http://localhost:${svc.port + 1}`,
      'http://127.0.0.1:5173',
      `http://[::1]:${svc.port + 2}`,
      'http://localhost',
      `https://localhost:${svc.port}`,
      `http://127.0.0.2:${svc.port}`,
      'null',
    ];
    const keyed = { 'X-Session-API-Key': svc.key };
    for (const origin of foreign) {
      const preflight = await call('OPTIONS', '/api/session-api-key/rotate', origin, {
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'x-session-api-key',
      });
      expect(preflight, `preflight from ${origin}`).toEqual({ ...FORBIDDEN, allowOrigin: undefined });
      expect(await call('POST', '/api/session-api-key/rotate', origin, keyed), origin).toEqual({
        ...FORBIDDEN,
        allowOrigin: undefined,
      });
      const stream = `/api/conversations/x/events/stream?session_api_key=${encodeURIComponent(svc.key)}`;
      expect(await call('GET', stream, origin), `SSE from ${origin}`).toEqual({
        ...FORBIDDEN,
        allowOrigin: undefined,
      });
      for (const transport of ['websocket', 'polling'] as const) {
        const message = await socketHandshake(svc.url, { key: svc.key, origin, transport });
        expect(message, `socket.io ${transport} from ${origin}`).not.toBe(ADMITTED);
        expect(message).not.toBe('connected');
      }
    }
    expect(svc.service.context.sessionKey.current).toBe(svc.key);
  });

  it('serves its own origins and the desktop app on HTTP and socket.io', async () => {
    for (const origin of [
      `http://127.0.0.1:${svc.port}`,
      `http://localhost:${svc.port}`,
      `http://[::1]:${svc.port}`,
      'app://dockhand',
    ]) {
      expect(await call('GET', '/api/secrets', origin, { 'X-Session-API-Key': svc.key }), origin).toEqual({
        status: 200,
        body: { custom_secrets: [] },
        allowOrigin: origin,
      });
      expect(await socketHandshake(svc.url, { key: svc.key, origin }), origin).toBe(ADMITTED);
    }
  });

  it('allows an extra origin only when a setting names it', async () => {
    const devServer = 'http://localhost:5173';
    const named = await startTestService({ allowedOrigins: [devServer] });
    const previous = process.env.DOCKHAND_ALLOWED_ORIGINS;
    process.env.DOCKHAND_ALLOWED_ORIGINS = devServer;
    const fromEnvironment = await startTestService().finally(() => {
      if (previous === undefined) delete process.env.DOCKHAND_ALLOWED_ORIGINS;
      else process.env.DOCKHAND_ALLOWED_ORIGINS = previous;
    });
    try {
      for (const service of [named, fromEnvironment]) {
        const answer = await loopbackRequest(service.port, 'GET', '/api/secrets', {
          Origin: devServer,
          'X-Session-API-Key': service.key,
        });
        expect(answer.status).toBe(200);
        expect(await socketHandshake(service.url, { key: service.key, origin: devServer })).toBe(ADMITTED);
        const other = await loopbackRequest(service.port, 'GET', '/api/secrets', {
          Origin: 'http://localhost:5174',
          'X-Session-API-Key': service.key,
        });
        expect(other.status).toBe(403);
      }
      expect(await call('GET', '/api/secrets', devServer, { 'X-Session-API-Key': svc.key })).toMatchObject(
        FORBIDDEN,
      );
    } finally {
      await named.close();
      await fromEnvironment.close();
    }
  });
});
