/**
 * The UI and the headless service, as a user meets them:
 *
 * - Chromium (playwright-core, /usr/bin/chromium) opens a conversation of 10 000 events and one of 100, served
 *   from a local HTTP server the page's requests are redirected to, like the service's SSE replay; from the navigation to the last event visible
 *   in the viewport, median of `--runs` alternating runs each. Targets: 10 000 events under 1 s, and at most
 *   3× the time of 100 events.
 * - `node bin/dockhand.js serve` on a fresh data folder: from spawn to the first 200 of `/alive`, against a bare
 *   `node -e` HTTP server measured the same way. Target: under 1 s.
 * - The resident memory of that service 2 s after start, with no conversations. Target: under 150 MB.
 *
 * Needs `npx electron-vite build` first. Prints every figure; exits 1 when a target is missed.
 *
 *   node --import tsx --import ./scripts/lib/raw-import.mjs bench/ui.ts [--runs 5]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium';
import { ROOT } from '../e2e/support/paths';
import { conversationInfo, sseBody, syntheticEvents } from '../e2e/support/synthetic-conversation';
import { median } from './support/bench-kit';

const TARGET_BIG_MS = 1_000;
const MAX_RATIO = 3;
const TARGET_COLD_START_MS = 1_000;
const TARGET_RSS_MB = 150;
const IDLE_SETTLE_MS = 2_000;
const ALIVE_POLL_MS = 5;
const LINK = /Dockhand is running at (http:\/\/127\.0\.0\.1:\d+)\/#key=(\S+)/;
const BARE_SERVER = `require('node:http').createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1', function () {
  console.log('listening on ' + this.address().port);
});`;

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);

/** Polls `url` until it answers 200; resolves with the time it did. */
async function firstOk(url: string): Promise<number> {
  for (;;) {
    try {
      const response = await fetch(url);
      await response.body?.cancel();
      if (response.ok) return performance.now();
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, ALIVE_POLL_MS));
  }
}

/** Resolves with the first match of `pattern` in the child's output. */
function printed(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let output = '';
    const look = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = pattern.exec(output);
      if (match) resolve(match);
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('exit', (code) => reject(new Error(`exited (code ${code}) before printing: ${output}`)));
  });
}

interface StartedService {
  child: ChildProcess;
  baseUrl: string;
  key: string;
  coldStartMs: number;
  dataDir: string;
}

async function startService(): Promise<StartedService> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dockhand-bench-ui-'));
  const started = performance.now();
  const child = spawn(process.execPath, ['bin/dockhand.js', 'serve', '--port', '0', '--data-dir', dataDir], {
    cwd: ROOT,
    env: { ...process.env, DOCKHAND_SECRETS: 'file', DOCKHAND_SESSION_API_KEY: undefined },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [, baseUrl = '', key = ''] = await printed(child, LINK);
  const alive = await firstOk(`${baseUrl}/alive`);
  return { child, baseUrl, key, coldStartMs: alive - started, dataDir };
}

async function bareServerStartMs(): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['-e', BARE_SERVER], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const [, port] = await printed(child, /listening on (\d+)/);
    return (await firstOk(`http://127.0.0.1:${port}/`)) - started;
  } finally {
    child.kill('SIGKILL');
  }
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
  return kb / 1024;
}

async function stop(service: StartedService): Promise<void> {
  const exited = new Promise((resolve) => service.child.once('exit', resolve));
  service.child.kill('SIGTERM');
  await exited;
  rmSync(service.dataDir, { recursive: true, force: true });
}

/**
 * SSE replays from a plain HTTP server on 127.0.0.1: the page's requests are redirected to it inside the
 * browser, so megabytes of events arrive from the network, not through the automation protocol.
 */
async function startReplayServer(replays: Map<string, string>): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const events = replays.get(url.pathname.slice(1));
    if (events === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' }).end(events);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A conversation that exists only in the page's eyes: its record and an SSE replay of `rounds` × 4 events. */
async function serveConversation(
  page: Page,
  replayBase: string,
  id: string,
  rounds: number,
): Promise<string> {
  const events = syntheticEvents(rounds);
  const info = conversationInfo(id, `${events.length} events`);
  await page.route(
    (url) => url.pathname === `/api/conversations/${id}`,
    (route) => route.fulfill({ json: info }),
  );
  await page.route(
    (url) => url.pathname === `/api/conversations/${id}/events/stream`,
    (route) => {
      // A reconnect asks for what came after the last event: nothing.
      const after = Number(new URL(route.request().url()).searchParams.get('after') ?? -1);
      const replay = after >= events.length - 1 ? 'empty' : id;
      return route.continue({ url: `${replayBase}/${replay}` });
    },
  );
  return `Reply number ${rounds - 1}`;
}

/** Milliseconds from the navigation to `lastText` rendered inside the event list's viewport. */
async function timeToLastEvent(page: Page, url: string, lastText: string): Promise<number> {
  await page.goto('about:blank');
  await page.goto(url, { waitUntil: 'commit' });
  const handle = await page.waitForFunction(
    (text) => {
      const viewport = document.querySelector('.vlog-viewport');
      if (!viewport) return false;
      const bounds = viewport.getBoundingClientRect();
      for (const row of document.querySelectorAll('.vlog-row')) {
        if (!row.textContent?.includes(text)) continue;
        const box = row.getBoundingClientRect();
        if (box.bottom > bounds.top && box.top < bounds.bottom && box.height > 0) return performance.now();
      }
      return false;
    },
    lastText,
    { polling: 'raf', timeout: 30_000 },
  );
  return (await handle.jsonValue()) as number;
}

const SMALL_ROUNDS = 25;
const BIG_ROUNDS = 2500;

async function measureUi(service: StartedService) {
  const replays = new Map([
    ['bench-100', sseBody(syntheticEvents(SMALL_ROUNDS))],
    ['bench-10k', sseBody(syntheticEvents(BIG_ROUNDS))],
    ['empty', sseBody([])],
  ]);
  const { server, base } = await startReplayServer(replays);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // The first visit adopts the key from the link; later navigations find it in the tab's storage.
    await page.goto(`${service.baseUrl}/#key=${service.key}`);
    await page.getByRole('heading', { name: 'Connect a language model to get started' }).waitFor();
    const small = await serveConversation(page, base, 'bench-100', SMALL_ROUNDS);
    const big = await serveConversation(page, base, 'bench-10k', BIG_ROUNDS);
    const smallUrl = `${service.baseUrl}/#/conversations/bench-100`;
    const bigUrl = `${service.baseUrl}/#/conversations/bench-10k`;
    // Warm-up: the browser's caches and the code's first compilation.
    await timeToLastEvent(page, smallUrl, small);
    await timeToLastEvent(page, bigUrl, big);
    const smallMs: number[] = [];
    const bigMs: number[] = [];
    for (let run = 0; run < runs; run++) {
      smallMs.push(await timeToLastEvent(page, smallUrl, small));
      bigMs.push(await timeToLastEvent(page, bigUrl, big));
    }
    return { small: median(smallMs), big: median(bigMs) };
  } finally {
    await browser.close();
    server.close();
  }
}

const failures: string[] = [];
function check(ok: boolean, message: string): void {
  if (!ok) failures.push(message);
}

const bareMs = await bareServerStartMs();
const service = await startService();
try {
  await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
  const rss = rssMb(service.child.pid ?? 0);
  console.log(
    `Service cold start to /alive: ${service.coldStartMs.toFixed(0)} ms ` +
      `(bare node -e http server: ${bareMs.toFixed(0)} ms; target < ${TARGET_COLD_START_MS} ms)`,
  );
  console.log(`Idle RSS after start, no conversations: ${rss.toFixed(1)} MB (target < ${TARGET_RSS_MB} MB)`);
  check(service.coldStartMs < TARGET_COLD_START_MS, 'cold start over target');
  check(rss < TARGET_RSS_MB, 'idle RSS over target');

  const ui = await measureUi(service);
  const ratio = ui.big / ui.small;
  console.log(`Navigation to the last visible event, median of ${runs}:`);
  console.log(`  100 events:    ${ui.small.toFixed(0)} ms`);
  console.log(`  10 000 events: ${ui.big.toFixed(0)} ms (target < ${TARGET_BIG_MS} ms)`);
  console.log(`  ratio: ${ratio.toFixed(2)}× (target ≤ ${MAX_RATIO}×)`);
  check(ui.big < TARGET_BIG_MS, '10 000-event conversation over target');
  check(ratio <= MAX_RATIO, '10 000 / 100 events ratio over target');
} finally {
  await stop(service);
}

if (failures.length > 0) {
  console.error(`Missed: ${failures.join('; ')}`);
  process.exit(1);
}
