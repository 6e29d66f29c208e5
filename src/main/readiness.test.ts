import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceNotReady, waitUntilAlive } from './readiness';

type Answer = { ok: boolean; status: number; json(): Promise<unknown> } | Error;

function scripted(answers: Answer[]) {
  const urls: string[] = [];
  const waits: number[] = [];
  return {
    urls,
    waits,
    options: {
      fetch: async (url: string) => {
        urls.push(url);
        const next = answers.shift() ?? new Error('script exhausted');
        if (next instanceof Error) throw next;
        return next;
      },
      wait: async (ms: number) => void waits.push(ms),
      attempts: 4,
      intervalMs: 25,
    },
  };
}

const alive = { ok: true, status: 200, json: async () => ({ status: 'ok' }) };

describe('waitUntilAlive', () => {
  it('returns once /alive answers ok, after retrying refusals and errors', async () => {
    const { urls, waits, options } = scripted([
      new Error('ECONNREFUSED'),
      { ok: false, status: 503, json: async () => ({}) },
      alive,
    ]);
    await waitUntilAlive('http://127.0.0.1:4000', options);
    expect(urls).toEqual(Array(3).fill('http://127.0.0.1:4000/alive'));
    expect(waits).toEqual([25, 25]);
  });

  it('rejects an answer that is not {"status":"ok"}', async () => {
    const { options } = scripted(
      Array(4).fill({ ok: true, status: 200, json: async () => ({ status: 'starting' }) }),
    );
    await expect(waitUntilAlive('http://127.0.0.1:4000', options)).rejects.toBeInstanceOf(ServiceNotReady);
  });

  it('gives up after the attempts with the last reason', async () => {
    const { urls, waits, options } = scripted(Array(4).fill(new Error('ECONNREFUSED')));
    await expect(waitUntilAlive('http://127.0.0.1:4000', options)).rejects.toThrow(
      'The Dockhand service did not answer at http://127.0.0.1:4000/alive after 4 attempts (ECONNREFUSED)',
    );
    expect(urls).toHaveLength(4);
    expect(waits).toHaveLength(3);
  });

  describe('against a real server on 127.0.0.1', () => {
    let server: Server | null = null;
    afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

    it('reads GET /alive with the default fetch', async () => {
      const requests: string[] = [];
      server = createServer((req, res) => {
        requests.push(`${req.method} ${req.url}`);
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ status: 'ok' }));
      });
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      await waitUntilAlive(`http://127.0.0.1:${port}`);
      expect(requests).toEqual(['GET /alive']);
    });
  });
});
