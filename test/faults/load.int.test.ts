import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rssMiB, runLoad } from '../../bench/load-run';
import { dockerSkipReason } from '../sandbox/support';
import { ensureCliBuilt, startServe, type RunningCli } from '../support/cli';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import { apiOf, removeSandboxesOf, serveEnvironment, useScriptedLlm } from './support';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the bounded load test: ${skip}`);

/** The CI-sized version of bench/load.ts: the same run, smaller, with no timing goals. */
describe.skipIf(skip !== null)(
  'bounded load: conversations with sandboxes while a client reads the API',
  () => {
    let dataDir: string;
    let llm: ScriptedLlm;
    let cli: RunningCli | undefined;

    beforeAll(async () => {
      ensureCliBuilt();
      dataDir = mkdtempSync(path.join(os.tmpdir(), 'dockhand-load-test-'));
      llm = await startScriptedLlm([], {
        channels: [{ marker: '[dockhand:title]', step: { text: 'Load title' } }],
      });
      cli = await startServe(['--data-dir', dataDir, '--port', '0'], serveEnvironment());
    });

    afterAll(async () => {
      await cli?.stop();
      if (dataDir) await removeSandboxesOf(dataDir);
      await llm?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it('answers every read, completes rounds in every conversation and keeps the event logs gap-free', async () => {
      const running = cli as RunningCli;
      const api = apiOf(running.port, running.key);
      await useScriptedLlm(api, llm, { max_concurrent_conversations: 5, max_live_sandboxes: 5 });
      const result = await runLoad({
        api,
        url: running.url,
        key: running.key,
        llm,
        conversations: 5,
        durationS: 10,
        rate: 50,
      });
      console.info(
        `bounded load: ${result.reads} reads, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, rounds ${result.rounds.join(' ')}, RSS ${rssMiB(running.child.pid as number).toFixed(1)} MiB`,
      );
      expect(result.failureNotes).toEqual([]);
      expect(result.failures).toBe(0);
      expect(result.gaps).toBe(0);
      expect(result.reads).toBeGreaterThan(0);
      expect(result.rounds.every((n) => n >= 1)).toBe(true);
      expect((await api('GET', '/api/conversations')).json).toMatchObject({ results: [] });
    });
  },
);
