/**
 * Load: 20 conversations, each with its own Docker sandbox and the scripted LLM, driven round after round
 * while a client reads the API at 200 requests/s for 60 s; then the same run again on the same service.
 * Prints reads, failures, p50/p99 read latency and the service's RSS before, after run 1 and after run 2.
 * Exits with 1 when any request fails, an event log has a gap, or run 2 grows RSS by more than 15 %.
 *
 *   node --import tsx --import ./scripts/lib/raw-import.mjs bench/load.ts [--conversations 20]
 *     [--duration 60] [--rate 200]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { apiOf, removeSandboxesOf, serveEnvironment, useScriptedLlm } from '../test/faults/support';
import { ensureCliBuilt, startServe } from '../test/support/cli';
import { startScriptedLlm } from '../test/support/scripted-llm';
import {
  cpuSeconds,
  type LoadResult,
  rssMiB,
  runLoad,
  type ServerLatency,
  serverSideLatency,
} from './load-run';

/** Run 2 may end with at most this much more RSS than run 1. */
const MAX_SECOND_RUN_GROWTH = 0.15;

function print(name: string, result: LoadResult, rss: number, cpu: number, server: ServerLatency): void {
  const rounds = result.rounds;
  const total = rounds.reduce((a, b) => a + b, 0);
  console.log(
    `${name}: ${result.reads} reads, ${result.failures} failures, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, ` +
      `rounds per conversation min ${Math.min(...rounds)} max ${Math.max(...rounds)} (total ${total}), ` +
      `event-log gaps ${result.gaps}, service CPU ${cpu.toFixed(1)} s (${((cpu * 1000) / Math.max(total, 1)).toFixed(1)} ms per round), ` +
      `RSS after ${rss.toFixed(1)} MiB; in the service p50 ${server.p50Ms} ms, p99 ${server.p99Ms} ms ` +
      `(slowest ${server.slowestPath}, p99 ${server.slowestP99Ms} ms)`,
  );
  for (const note of result.failureNotes) console.log(`  ${note}`);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      conversations: { type: 'string', default: '20' },
      duration: { type: 'string', default: '60' },
      rate: { type: 'string', default: '200' },
    },
  });
  const load = {
    conversations: Number(values.conversations),
    durationS: Number(values.duration),
    rate: Number(values.rate),
  };
  ensureCliBuilt();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dockhand-load-'));
  const llm = await startScriptedLlm([], {
    channels: [{ marker: '[dockhand:title]', step: { text: 'Load title' } }],
  });
  const cli = await startServe(['--data-dir', dataDir, '--port', '0'], serveEnvironment());
  const pid = cli.child.pid as number;
  try {
    const api = apiOf(cli.port, cli.key);
    // Every conversation runs at once: both caps at their maximum (20) for the run.
    const caps = Math.max(load.conversations, 1);
    await useScriptedLlm(api, llm, { max_concurrent_conversations: caps, max_live_sandboxes: caps });
    console.log(
      `${load.conversations} conversations with a Docker sandbox each, reads at ${load.rate}/s for ${load.durationS} s, twice`,
    );
    const before = rssMiB(pid);
    console.log(`service RSS before: ${before.toFixed(1)} MiB`);
    const options = { api, url: cli.url, key: cli.key, llm, ...load };
    const log = path.join(dataDir, 'logs', 'dockhand.log');
    const cpuBefore = cpuSeconds(pid);
    const logBefore = serverSideLatency(log, 0).lines;
    const first = await runLoad(options);
    const afterFirst = rssMiB(pid);
    const cpuFirst = cpuSeconds(pid);
    const serverFirst = serverSideLatency(log, logBefore);
    print('run 1', first, afterFirst, cpuFirst - cpuBefore, serverFirst);
    const second = await runLoad(options);
    const afterSecond = rssMiB(pid);
    print(
      'run 2',
      second,
      afterSecond,
      cpuSeconds(pid) - cpuFirst,
      serverSideLatency(log, serverFirst.lines),
    );
    const growth = (afterSecond - afterFirst) / afterFirst;
    console.log(
      `RSS growth in run 2: ${(growth * 100).toFixed(1)} % (at most ${MAX_SECOND_RUN_GROWTH * 100} %)`,
    );
    if (first.failures + second.failures > 0 || first.gaps + second.gaps > 0) {
      console.error('FAIL: failed requests or event-log gaps');
      return 1;
    }
    if (growth > MAX_SECOND_RUN_GROWTH) {
      console.error('FAIL: the service kept growing in the second run');
      return 1;
    }
    return 0;
  } finally {
    await cli.stop();
    await removeSandboxesOf(dataDir);
    await llm.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
