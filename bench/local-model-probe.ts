/**
 * The cost of probing a local model, from the start of an agent's work (its first message) to the first
 * agent-turn request the model server receives, against a fake Ollama on 127.0.0.1:
 *
 * - baseline: the model client as for any provider (no probe; OpenAI-compatible chat);
 * - cached: the probe's results known (the server's facts and the tool mode, as after a first conversation):
 *   the context is sized and the call goes through Ollama's native chat with `num_ctx`;
 * - cold: nothing known: `/api/show` and `/api/ps`, then the one-shot tool-call probe, then the turn.
 *
 * After one warm-up each, the variants alternate for `--runs` rounds; prints the medians, what cached and cold
 * add to the baseline and their ratios. Exits 1 when cached adds more than 5 ms. The agent is the service's
 * (`createAgent`), on a process shell that no step uses.
 *
 *   node --import tsx --import ./scripts/lib/raw-import.mjs bench/local-model-probe.ts [--runs 30]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { ModelProbes } from '../src/service/agent/llm/model-probes';
import { EventLog } from '../src/service/events/event-log';
import { openDatabase } from '../src/service/storage/database';
import { startLocalModelServer } from '../test/support/local-model-servers';
import { processAgent } from '../test/support/process-agent';
import { median, runBench } from './support/bench-kit';

const CACHED_MAX_ADDED_MS = 5;

runBench(async () => {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '30' } } });
  const runs = Number(values.runs);
  const root = mkdtempSync(path.join(os.tmpdir(), 'dockhand-bench-probe-'));
  const db = openDatabase(path.join(root, 'data'));
  const events = new EventLog(db);
  const server = await startLocalModelServer({
    kind: 'ollama',
    models: [{ name: 'qwen-coder', trainedContext: 131_072, tools: 'native' }],
  });
  const warm = new ModelProbes();
  let conversations = 0;

  /** One agent from its first message to the first agent turn the server receives, in ms. */
  async function firstTurn(probes: ModelProbes | null): Promise<number> {
    const id = `bench-${++conversations}`;
    const agent = processAgent({
      db,
      events,
      root,
      conversationId: id,
      model: 'ollama/qwen-coder',
      settings: { llm_base_url: server.origin },
      probes,
    });
    const seen = server.turns.length;
    const started = performance.now();
    agent.loop.sendMessage('Say hello.');
    await agent.loop.settled();
    const turn = server.turns[seen];
    if (!turn) throw new Error(`no agent turn reached the server (state ${agent.loop.state})`);
    return turn.at - started;
  }

  const variants: [string, () => Promise<number>][] = [
    ['baseline (no probe)', () => firstTurn(null)],
    ['cached probe', () => firstTurn(warm)],
    ['cold probe', () => firstTurn(new ModelProbes())],
  ];
  const times = new Map<string, number[]>(variants.map(([name]) => [name, []]));
  try {
    for (const [, run] of variants) await run(); // warm-up (fills `warm`)
    for (let round = 0; round < runs; round++) {
      for (const [name, run] of variants) times.get(name)?.push(await run());
    }
  } finally {
    await server.close();
    db.close();
    rmSync(root, { recursive: true, force: true });
  }
  const med = (name: string) => median(times.get(name) ?? []);
  const base = med('baseline (no probe)');
  console.log(`Start to first model request, median of ${runs} (load ${os.loadavg()[0]?.toFixed(2)}):`);
  for (const [name] of variants) {
    const m = med(name);
    console.log(
      `  ${name.padEnd(20)} ${m.toFixed(2)} ms` +
        (name.startsWith('baseline') ? '' : `  (+${(m - base).toFixed(2)} ms, ${(m / base).toFixed(2)}x)`),
    );
  }
  const added = med('cached probe') - base;
  if (added > CACHED_MAX_ADDED_MS) {
    console.error(`The cached probe adds ${added.toFixed(2)} ms, more than ${CACHED_MAX_ADDED_MS} ms.`);
    return 1;
  }
  return 0;
});
