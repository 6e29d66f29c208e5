import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startTestService, type TestResponse } from '../support/service';

/** Counts of each status code. */
function statusCounts(responses: TestResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const r of responses) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}

describe('per-key rate limit', () => {
  it('with DOCKHAND_RATE_LIMIT=20, answers part of 100 requests in one second with 429 and Retry-After', async () => {
    const previous = process.env.DOCKHAND_RATE_LIMIT;
    process.env.DOCKHAND_RATE_LIMIT = '20';
    const svc = await startTestService();
    if (previous === undefined) delete process.env.DOCKHAND_RATE_LIMIT;
    else process.env.DOCKHAND_RATE_LIMIT = previous;
    try {
      const responses: TestResponse[] = [];
      for (let batch = 0; batch < 10; batch += 1) {
        responses.push(
          ...(await Promise.all(Array.from({ length: 10 }, () => svc.api('GET', '/api/secrets')))),
        );
        await sleep(100);
      }
      const counts = statusCounts(responses);
      expect(Object.keys(counts).sort()).toEqual(['200', '429']);
      const limited = responses.filter((r) => r.status === 429);
      for (const r of limited) {
        expect(r.json).toEqual({ detail: 'Too many requests' });
        expect(r.headers['retry-after']).toBe('1');
      }
      // The open probes are never limited.
      expect((await svc.api('GET', '/alive', { key: null })).status).toBe(200);
      expect((await svc.api('GET', '/health', { key: null })).status).toBe(200);
    } finally {
      await svc.close();
    }
  });

  it('refuses to start with a DOCKHAND_RATE_LIMIT that is not a positive number', async () => {
    const previous = process.env.DOCKHAND_RATE_LIMIT;
    try {
      for (const value of ['abc', '0', '-5']) {
        process.env.DOCKHAND_RATE_LIMIT = value;
        await expect(startTestService()).rejects.toThrow(
          `DOCKHAND_RATE_LIMIT must be a positive number of requests per second, not "${value}"`,
        );
      }
    } finally {
      if (previous === undefined) delete process.env.DOCKHAND_RATE_LIMIT;
      else process.env.DOCKHAND_RATE_LIMIT = previous;
    }
  });

  it('with the default limit, 200 requests per second for 10 s are all answered', async () => {
    const svc = await startTestService();
    try {
      expect((await svc.api('POST', '/api/settings', { body: { language: 'en' } })).status).toBe(200);
      const responses: TestResponse[] = [];
      const started = Date.now();
      for (let tick = 0; tick < 100; tick += 1) {
        // 20 requests every 100 ms, paced against the clock so the rate holds even when a batch is slow.
        responses.push(
          ...(await Promise.all(Array.from({ length: 20 }, () => svc.api('GET', '/api/settings')))),
        );
        await sleep(Math.max(0, started + (tick + 1) * 100 - Date.now()));
      }
      expect(responses).toHaveLength(2000);
      expect(statusCounts(responses)).toEqual({ 200: 2000 });
    } finally {
      await svc.close();
    }
  });
});
