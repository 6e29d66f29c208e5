import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/service/logger';
import { startTestService, tempDataDir, type TestService } from '../support/service';
import { until } from '../support/until';

const STREAM = '/api/conversations/no-such-conversation/events/stream';
const NOT_FOUND = 404;
const UNAUTHORIZED = 401;

describe('the query key in the request log', () => {
  let svc: TestService;
  let dataDir: string;

  const logText = () => {
    const file = path.join(dataDir, 'logs', 'dockhand.log');
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  };

  beforeAll(async () => {
    dataDir = tempDataDir();
    svc = await startTestService({ dataDir, logger: createLogger(dataDir, 'debug') });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('never writes the key, however its parameter name is spelled, and takes it only where the query key is allowed', async () => {
    const key = svc.key;
    // The status shows whether the key was taken: 404 (taken, no such conversation) or 401 (refused).
    const cases: [string, number][] = [
      [`${STREAM}?session_api_key=${key}`, NOT_FOUND],
      // The query parser decodes names, as any URL parser does: an escaped `_` is the same name.
      [`${STREAM}?session%5Fapi%5Fkey=${key}`, NOT_FOUND],
      [`${STREAM}?session%5fapi%5fkey=${key}&latest=1`, NOT_FOUND],
      [`${STREAM}?%73ession_api_key=${key}`, NOT_FOUND],
      // Other names are not the key, but are kept out of the log all the same.
      [`${STREAM}?Session_Api_Key=${key}`, UNAUTHORIZED],
      [`${STREAM}?session+api+key=${key}`, UNAUTHORIZED],
      [`${STREAM}?session_api_key%3D${key}`, UNAUTHORIZED],
      // Repeated, the parameter is a list, not a key.
      [`${STREAM}?session_api_key=${key}&SESSION%5FAPI%5FKEY=${key}&session_api_key=${key}`, UNAUTHORIZED],
      // Outside the event stream the query key is never taken, spelled any way.
      [`/api/settings?session_api_key=${key}`, UNAUTHORIZED],
      [`/api/settings?session%5Fapi%5Fkey=${key}`, UNAUTHORIZED],
      [`/api/conversations/x/events?session%5Fapi%5Fkey=${key}`, UNAUTHORIZED],
    ];
    const outcomes = [];
    for (const [url] of cases) {
      outcomes.push([url, (await svc.api('GET', url, { key: null })).status]);
    }
    expect(outcomes).toEqual(cases);

    const marker = `/api/log-marker-${Date.now()}`;
    await svc.api('GET', marker, { key: null });
    const log = await until(
      async () => logText(),
      (text) => text.includes(marker),
      'the log to be written',
    );
    expect(log).not.toContain(key);
    // Every request was logged, each with its key hidden.
    expect(log.match(/<redacted>/g)?.length).toBeGreaterThanOrEqual(cases.length + 2);
    expect(log).toContain('session%5Fapi%5Fkey=<redacted>');
  });
});
