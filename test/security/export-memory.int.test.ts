import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { makeLocalGitRepo } from '../support/local-git-repo';
import { dockerSkipReason } from '../sandbox/support';
import { startLocalConversations, type LocalConversations } from '../local-repository/local-conversation';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the export memory tests: ${skip}`);

/** The bound: applying a file never grows the service's resident memory by this much (it is streamed). */
const RSS_GROWTH_BOUND = 256 * 1024 ** 2;
const MiB = 1024 ** 2;

/** Runs `work` while sampling the resident memory of this process (the service runs in it). */
async function peakRss<T>(work: () => Promise<T>): Promise<{ result: T; before: number; peak: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  try {
    const result = await work();
    return { result, before, peak: Math.max(peak, process.memoryUsage().rss) };
  } finally {
    clearInterval(sampler);
  }
}

describe.skipIf(skip !== null)('filling the service’s memory with a large file in the agent’s work', () => {
  let local: LocalConversations;

  beforeAll(async () => {
    local = await startLocalConversations();
  });

  afterAll(async () => {
    await local?.close();
  });

  it('refuses a 2.5 GB file over the apply cap by its size, before reading it (409 naming it)', async () => {
    const repo = makeLocalGitRepo({ 'a.txt': 'a\n' });
    const { id } = await local.converse(
      { repository: repo.root },
      'truncate -s 2500M big.bin && echo small > small.txt',
    );
    const before = repo.fingerprint();
    const { result, before: rss, peak } = await peakRss(() => local.exportWork(id, { mode: 'apply' }));
    console.info(
      `apply of a 2.5 GB file: RSS ${Math.round(rss / MiB)} MiB before, ${Math.round(peak / MiB)} MiB at most`,
    );
    expect(result.status, JSON.stringify(result.json)).toBe(409);
    expect((result.json as { detail: string }).detail).toMatch(/larger than 1 GiB.*big\.bin/);
    expect(peak - rss).toBeLessThan(RSS_GROWTH_BOUND);
    expect(repo.fingerprint()).toBe(before);
  });

  it('streams a 600 MB file under the cap into the working tree', async () => {
    const repo = makeLocalGitRepo({ 'a.txt': 'a\n' });
    const { id } = await local.converse({ repository: repo.root }, 'truncate -s 600M big.bin');
    const { result, before: rss, peak } = await peakRss(() => local.exportWork(id, { mode: 'apply' }));
    console.info(
      `apply of a 600 MB file: RSS ${Math.round(rss / MiB)} MiB before, ${Math.round(peak / MiB)} MiB at most`,
    );
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(statSync(`${repo.root}/big.bin`).size).toBe(600 * MiB);
    expect(peak - rss).toBeLessThan(RSS_GROWTH_BOUND);
  });
});
