import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelFetch } from './http-transport';

describe('modelFetch', () => {
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/moved') {
        res.writeHead(307, { location: '/echo' });
        res.end();
        return;
      }
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (req.url === '/empty') {
          res.writeHead(204).end();
          return;
        }
        res.writeHead(200, {
          'content-type': 'text/plain',
          'x-seen-type': req.headers['content-type'] ?? '',
        });
        res.write(`${req.method} `);
        // The rest comes later: the body is a stream, not one buffer at the end.
        setTimeout(() => res.end(body), 30);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends the method, headers and body and streams the reply with its status and headers', async () => {
    const response = await modelFetch(`${base}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-seen-type')).toBe('application/json');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('POST ');
    let rest = '';
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      rest += new TextDecoder().decode(part.value);
    }
    expect(rest).toBe('{"a":1}');
  });

  it('follows a redirect within the origin as fetch does, and gives no body for a 204', async () => {
    const moved = await modelFetch(`${base}/moved`, { method: 'POST', body: 'again' });
    expect(await moved.text()).toBe('POST again');
    const empty = await modelFetch(`${base}/empty`, { method: 'POST', body: '' });
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
  });

  it('fails like fetch when nothing listens, and with the reason when aborted', async () => {
    const refused = modelFetch('http://127.0.0.1:1/v1/chat/completions', { method: 'POST', body: '{}' });
    await expect(refused).rejects.toMatchObject({
      name: 'TypeError',
      message: 'fetch failed',
      cause: { code: 'ECONNREFUSED' },
    });
    const controller = new AbortController();
    const stop = new Error('Stop pressed');
    const response = await modelFetch(`${base}/echo`, {
      method: 'POST',
      body: 'x',
      signal: controller.signal,
    });
    controller.abort(stop);
    await expect(response.text()).rejects.toBeDefined();
  });
});
