/**
 * Throughput of the Dockhand service against a bare Express app serving the same JSON.
 *
 * Starts, in this one process, the real service (memory secret store, file logger, settings saved) and a
 * bare Express app with one route returning the body of GET /api/settings, then loads each with
 * autocannon for the same duration and connections. Exits non-zero when the service reaches less than
 * half the bare app's requests per second, or when any request fails.
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
import { createService } from '../src/service/index';
import { createLogger } from '../src/service/logger';
import { MemorySecretStore } from '../src/service/secrets/memory-store';

const MIN_RATIO = 0.5;
const WARM_UP_SECONDS = 2;

interface Load {
  url: string;
  headers: Record<string, string>;
  duration: number;
  connections: number;
}

interface Measured {
  requestsPerSecond: number;
  latencyP99Ms: number;
  failures: number;
}

async function measure(load: Load): Promise<Measured> {
  const result = await autocannon({ ...load, method: 'GET' });
  return {
    requestsPerSecond: result.requests.average,
    latencyP99Ms: result.latency.p99,
    failures: result.errors + result.timeouts + result.non2xx,
  };
}

/** Loads the server briefly first, so both are measured with warm code paths. */
async function measureWarm(load: Load): Promise<Measured> {
  await measure({ ...load, duration: WARM_UP_SECONDS });
  return measure(load);
}

function report(name: string, result: Measured): void {
  const rate = result.requestsPerSecond.toFixed(0).padStart(8);
  console.log(`${name.padEnd(13)} ${rate} req/s   p99 ${result.latencyP99Ms} ms   failures ${result.failures}`);
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
      `GET /api/settings, ${load.connections} connections, ${load.duration} s each (after ${WARM_UP_SECONDS} s warm-up)`,
    );
    const dockhand = await measureWarm({ url: `${service.url}/api/settings`, headers, ...load });
    const bareExpress = await measureWarm({ url: reference.url, headers: {}, ...load });
    report('dockhand', dockhand);
    report('bare express', bareExpress);
    const ratio = dockhand.requestsPerSecond / bareExpress.requestsPerSecond;
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
