/**
 * Throughput of the Dockhand service against a bare Express app serving the same JSON.
 *
 * Starts, in this one process, the real service as built (bundled like the app; memory secret store, file
 * logger, settings saved) and a bare Express app with one route returning the body of GET /api/settings,
 * then loads each with autocannon for the same time and connections. Exits non-zero when the service reaches less than
 * 0.7 of the bare app's requests per second, or when any request fails.
 *
 *   npx tsx bench/api.ts [--duration 10] [--connections 10]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import express from 'express';
import { builtService } from './support/built-service';

const MIN_RATIO = 0.7;
/** The load alternates between the two servers in rounds, so a busy machine slows both alike. */
const ROUND_SECONDS = 2;

interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
}

interface Totals {
  requests: number;
  seconds: number;
  failures: number;
}

async function round(target: Target, connections: number): Promise<Totals> {
  const result = await autocannon({
    url: target.url,
    headers: target.headers,
    method: 'GET',
    connections,
    duration: ROUND_SECONDS,
  });
  return {
    requests: result.requests.total,
    seconds: result.duration,
    failures: result.errors + result.timeouts + result.non2xx,
  };
}

/** One warm-up round each, then alternating rounds until each target had `duration` seconds. */
async function measure(targets: Target[], duration: number, connections: number): Promise<Totals[]> {
  for (const target of targets) await round(target, connections);
  const totals = targets.map(() => ({ requests: 0, seconds: 0, failures: 0 }));
  for (let elapsed = 0; elapsed < duration; elapsed += ROUND_SECONDS) {
    for (const [i, target] of targets.entries()) {
      const result = await round(target, connections);
      const total = totals[i] as Totals;
      total.requests += result.requests;
      total.seconds += result.seconds;
      total.failures += result.failures;
    }
  }
  return totals;
}

function perSecond(totals: Totals): number {
  return totals.requests / totals.seconds;
}

/** Saves settings with an LLM key, then returns GET /api/settings as the service answers it. */
async function saveAndLoadSettings(url: string, headers: Record<string, string>): Promise<unknown> {
  const saved = await fetch(`${url}/api/settings`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ llm_model: 'openai/gpt-4o', llm_api_key: 'sk-bench', language: 'en' }),
  });
  if (!saved.ok) throw new Error(`Saving settings failed: ${saved.status} ${await saved.text()}`);
  const loaded = await fetch(`${url}/api/settings`, { headers });
  if (!loaded.ok) throw new Error(`Loading settings failed: ${loaded.status} ${await loaded.text()}`);
  return loaded.json();
}

async function startBareExpress(body: unknown): Promise<{ server: Server; url: string }> {
  const app = express();
  app.get('/api/settings', (_req, res) => {
    res.json(body);
  });
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { server, url: `http://127.0.0.1:${port}/api/settings` };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '10' } },
  });
  const load = { duration: Number(values.duration), connections: Number(values.connections) };

  const { createService, createLogger, MemorySecretStore } = await builtService();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dockhand-bench-'));
  const service = await createService({
    dataDir,
    port: 0,
    logger: createLogger(dataDir, 'info'),
    secretStore: new MemorySecretStore(),
    // The limiter still runs on every request; it must not turn the load into 429s.
    rateLimitPerSecond: 1_000_000_000,
  });
  const headers = { 'X-Session-API-Key': service.context.sessionKey.current };
  let bare: Server | undefined;
  try {
    const settings = await saveAndLoadSettings(service.url, headers);
    const reference = await startBareExpress(settings);
    bare = reference.server;

    console.log(
      `GET /api/settings, ${load.connections} connections, ${load.duration} s each in ${ROUND_SECONDS} s rounds`,
    );
    const targets: Target[] = [
      { name: 'dockhand', url: `${service.url}/api/settings`, headers },
      { name: 'bare express', url: reference.url, headers: {} },
    ];
    const [dockhand, bareExpress] = (await measure(targets, load.duration, load.connections)) as [
      Totals,
      Totals,
    ];
    for (const [i, totals] of [dockhand, bareExpress].entries()) {
      const rate = perSecond(totals).toFixed(0).padStart(8);
      console.log(`${targets[i]?.name.padEnd(13)} ${rate} req/s   failures ${totals.failures}`);
    }
    const ratio = perSecond(dockhand) / perSecond(bareExpress);
    console.log(`ratio         ${ratio.toFixed(2)} (minimum ${MIN_RATIO})`);
    if (dockhand.failures > 0 || bareExpress.failures > 0) {
      console.error('FAIL: some requests failed');
      return 1;
    }
    if (ratio < MIN_RATIO) {
      console.error(`FAIL: the service reaches less than ${MIN_RATIO} of the bare Express throughput`);
      return 1;
    }
    return 0;
  } finally {
    if (bare) await new Promise<void>((resolve) => bare?.close(() => resolve()));
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
