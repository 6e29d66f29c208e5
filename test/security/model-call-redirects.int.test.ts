import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followedRedirect, modelFetch } from '../../src/service/agent/llm/http-transport';

/** A server on loopback that records what reaches it; `/away` redirects to `target()`. */
async function recordingServer(target: () => string) {
  const seen: { url: string; authorization: string | undefined; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', authorization: req.headers.authorization, body });
      if (req.url === '/away') res.writeHead(307, { location: target() }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('a model endpoint cannot redirect a model call, with its key and conversation, elsewhere', () => {
  let other: Awaited<ReturnType<typeof recordingServer>>;
  let endpoint: Awaited<ReturnType<typeof recordingServer>>;

  beforeAll(async () => {
    other = await recordingServer(() => '/');
    endpoint = await recordingServer(() => `${other.base}/steal`);
  });
  afterAll(async () => {
    await endpoint.close();
    await other.close();
  });

  it('a redirect to another origin is not followed: the provider sees the redirect', async () => {
    const response = await modelFetch(`${endpoint.base}/away`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-model-key', 'content-type': 'application/json' },
      body: '{"messages":["the conversation"]}',
    });
    expect(response.status).toBe(307);
    expect(other.seen).toEqual([]);
    expect(endpoint.seen.map((r) => r.url)).toEqual(['/away']);
  });

  it('decides on the origin: scheme, host and port', () => {
    const from = 'https://api.example.com/v1/chat/completions';
    expect(followedRedirect(from, 307, '/v1/responses')).toBe('https://api.example.com/v1/responses');
    expect(followedRedirect(from, 308, 'https://api.example.com:443/v1/x')).toBe(
      'https://api.example.com/v1/x',
    );
    for (const location of [
      'http://api.example.com/v1/chat/completions', // https -> http
      'https://api.example.com:8443/v1',
      'https://evil.example/v1',
      '//evil.example/v1',
      'https://api.example.com.evil.example/v1',
      'https://user@evil.example/',
    ]) {
      expect([location, followedRedirect(from, 307, location)]).toEqual([location, null]);
    }
    expect(followedRedirect(from, 200, '/v1/x')).toBeNull();
  });
});
