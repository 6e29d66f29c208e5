import { Writable } from 'node:stream';
import express from 'express';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { redactUrl, requestLevel, requestLog, SLOW_REQUEST_MS } from './request-log';

describe('requestLevel', () => {
  it('keeps fast successes at debug', () => {
    expect(requestLevel(200, 3)).toBe('debug');
    expect(requestLevel(304, 0)).toBe('debug');
  });

  it('raises failures and slow requests to info', () => {
    expect(requestLevel(401, 1)).toBe('info');
    expect(requestLevel(500, 1)).toBe('info');
    expect(requestLevel(200, SLOW_REQUEST_MS)).toBe('info');
  });
});

describe('redactUrl', () => {
  it('hides a key carried in the query, whatever its case', () => {
    expect(redactUrl('/s?a=1&SESSION_API_KEY=secret&b=2')).toBe('/s?a=1&SESSION_API_KEY=<redacted>&b=2');
  });
});

async function logLines(level: pino.Level, paths: string[]): Promise<Record<string, unknown>[]> {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const app = express();
  app.use(requestLog(pino({ level }, sink)));
  app.get('/ok', (_req, res) => res.json({}));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  for (const p of paths) await fetch(`http://127.0.0.1:${port}${p}`);
  await new Promise((resolve) => server.close(resolve));
  return lines;
}

describe('requestLog', () => {
  it('writes failures at info and leaves fast successes out', async () => {
    const lines = await logLines('info', ['/ok', '/missing?session_api_key=k']);
    expect(lines).toEqual([
      expect.objectContaining({ msg: 'request', status: 404, url: '/missing?session_api_key=<redacted>' }),
    ]);
  });

  it('writes every request at debug', async () => {
    const lines = await logLines('debug', ['/ok', '/missing']);
    expect(lines.map((l) => l.status)).toEqual([200, 404]);
  });
});
