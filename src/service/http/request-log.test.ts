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

  it('hides it under every spelling of the name the query parser decodes, and every repetition', () => {
    const spellings = [
      'session%5Fapi%5Fkey',
      'session%5fapi%5fkey',
      '%73ession_api_key',
      'Session+Api+Key',
      'session%20api%20key',
      'session-api-key',
      'SeSsIoN_aPi_KeY',
    ];
    for (const name of spellings) {
      expect(redactUrl(`/s?${name}=secret`), name).toBe(`/s?${name}=<redacted>`);
    }
    expect(redactUrl('/s?session_api_key=one&x=1&session%5Fapi%5Fkey=two&session_api_key=three')).toBe(
      '/s?session_api_key=<redacted>&x=1&session%5Fapi%5Fkey=<redacted>&session_api_key=<redacted>',
    );
  });

  it('hides a name that carries the key itself, and a name without a value', () => {
    expect(redactUrl('/s?session_api_key%3Dsecret&a=1')).toBe('/s?<redacted>&a=1');
    expect(redactUrl('/s?session_api_key')).toBe('/s?session_api_key=<redacted>');
  });

  it('leaves other parameters, paths without a query and malformed escapes as they are', () => {
    expect(redactUrl('/api/conversations/x/events?limit=5&api=key')).toBe(
      '/api/conversations/x/events?limit=5&api=key',
    );
    expect(redactUrl('/api/settings')).toBe('/api/settings');
    expect(redactUrl('/s?%E0%A4%A=1&session%5Gapi=2')).toBe('/s?%E0%A4%A=1&session%5Gapi=2');
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
