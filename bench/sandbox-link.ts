/**
 * The sandbox link's cost: a 100 MB download through a gated sandbox's link (its proxy) against the same
 * download in a host-network container, and the median time added to a small HTTP request. Targets: at least
 * 0.5x the host-mode throughput, at most 2 ms added per request. Traffic stays on 127.0.0.1.
 *
 *   npm run bench:sandbox-link
 */
import { createServer } from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import Docker from 'dockerode';
import pino from 'pino';
import {
  containerOptions,
  DEFAULT_LIMITS,
  type NetworkMode,
} from '../src/service/sandbox/docker/container-options';
import { dockerPiped } from '../src/service/sandbox/docker/docker-piped';
import { LentFolders } from '../src/service/sandbox/docker/lent-folders';
import { DockerWorkspace } from '../src/service/sandbox/docker/docker-workspace';
import { decideEgress, localAddresses } from '../src/service/sandbox/link/egress-gate';
import { SandboxLink } from '../src/service/sandbox/link/sandbox-link';
import { newSandboxId } from '../src/service/sandbox/sandbox-id';
import { median, runBench } from './support/bench-kit';

const IMAGE = process.env.DOCKHAND_SANDBOX_IMAGE || 'dockhand/sandbox:1.0.0';
const DOWNLOAD_BYTES = 100 * 1024 * 1024;
const DOWNLOADS = 3;
const SMALL_REQUESTS = 300;
const BENCH_LABEL = 'dev.dockhand.bench';

/** Downloads the URL with python (through the proxy when the environment names one); prints seconds. */
const DOWNLOAD = `import sys, time, urllib.request
start = time.perf_counter(); size = 0
with urllib.request.urlopen(sys.argv[1]) as answer:
  while True:
    chunk = answer.read(1 << 20)
    if not chunk: break
    size += len(chunk)
assert size == int(sys.argv[2]), size
print(time.perf_counter() - start)`;

/**
 * Small GETs on one kept-alive connection, to the server directly or to the proxy (absolute URL); prints the
 * time of each in ms.
 */
const SMALL = `import http.client, sys, time
host, port, path, count = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
connection = http.client.HTTPConnection(host, port)
for i in range(count):
  start = time.perf_counter()
  connection.request("GET", path)
  answer = connection.getresponse(); answer.read()
  print((time.perf_counter() - start) * 1000)`;

async function startServer(): Promise<{ port: number; close(): void }> {
  const chunk = Buffer.alloc(256 * 1024, 1);
  const server = createServer((request, response) => {
    if (request.url?.startsWith('/small')) {
      response.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': 3 }).end('ok\n');
      return;
    }
    response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': DOWNLOAD_BYTES });
    let left = DOWNLOAD_BYTES;
    const write = () => {
      while (left > 0) {
        const piece = chunk.subarray(0, Math.min(left, chunk.length));
        left -= piece.length;
        if (!response.write(piece)) return void response.once('drain', write);
      }
      response.end();
    };
    write();
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}

async function startContainer(docker: Docker, network: NetworkMode): Promise<Docker.Container> {
  const sandboxId = newSandboxId();
  const options = containerOptions({
    sandboxId,
    instanceId: 'bench-sandbox-link',
    spec: {
      id: IMAGE,
      command: ['sleep', 'infinity'],
      initialEnv: { LANG: 'C.UTF-8' },
      workingDir: '/',
      title: '',
      description: '',
    },
    user: null,
    network,
    limits: DEFAULT_LIMITS,
    allowSudo: true,
  });
  // No volume: the bench needs none and leaves nothing behind.
  if (options.HostConfig) options.HostConfig.Mounts = [];
  const container = await docker.createContainer({
    ...options,
    Labels: { ...options.Labels, [BENCH_LABEL]: 'sandbox-link' },
  });
  await container.start();
  return container;
}

function workspaceOf(container: Docker.Container): DockerWorkspace {
  return new DockerWorkspace({
    sandboxId: 'bench',
    container,
    user: null,
    workspaceDir: '/',
    workingDir: '/',
    appPorts: { WORKER_1: 8011, WORKER_2: 8012 },
    lent: new LentFolders(new Docker()),
  });
}

async function python(workspace: DockerWorkspace, script: string, args: string[]): Promise<number[]> {
  const result = await workspace.exec(['python3', '-c', script, ...args], { timeout: 300 });
  if (result.exitCode !== 0) throw new Error(`python failed: ${result.stderr}`);
  return result.stdout.trim().split('\n').map(Number);
}

/**
 * The channel's own ceiling: MB/s of raw bytes written into a `docker exec -i` (`cat > /dev/null`), the
 * stream the link's downloads ride on, without the link.
 */
async function execCeiling(container: Docker.Container): Promise<number> {
  const piped = await dockerPiped(container, ['sh', '-c', 'cat > /dev/null; echo done']);
  const chunk = Buffer.alloc(64 * 1024, 1);
  const done = new Promise<void>((resolve) => piped.stdout.once('data', () => resolve()));
  const started = performance.now();
  for (let sent = 0; sent < DOWNLOAD_BYTES; sent += chunk.length) {
    if (!piped.stdin.write(chunk)) await new Promise((resolve) => piped.stdin.once('drain', resolve));
  }
  piped.stdin.end();
  await done;
  return DOWNLOAD_BYTES / 1024 ** 2 / ((performance.now() - started) / 1000);
}

async function main(): Promise<number> {
  const docker = new Docker();
  const server = await startServer();
  let link: SandboxLink | null = null;
  try {
    const host = workspaceOf(await startContainer(docker, 'host'));
    const gatedContainer = await startContainer(docker, 'gated');
    const gated = workspaceOf(gatedContainer);
    const gate = {
      resolve: async () => ['127.0.0.1'],
      context: () => ({ hostAddresses: localAddresses(), protectedPorts: new Set<number>() }),
    };
    const policy = {
      preset: 'open' as const,
      allow: ['bench.test'],
      deny: [],
      modelHosts: [],
      serviceHosts: [],
    };
    const startLink = () =>
      SandboxLink.start({
        sandbox: gated,
        check: (target) => decideEgress(gate, policy, target),
        previewsChanged: () => undefined,
        logger: pino({ level: 'silent' }),
      });
    // What the link adds to a gated sandbox's start: the first with the copy of the lent Node, then again
    // (a resume, or a warm-pool claim of a container whose Node was copied before it was paused).
    let started = performance.now();
    link = await startLink();
    const firstStartMs = performance.now() - started;
    link.close();
    const restartMs: number[] = [];
    for (let round = 0; round < 5; round++) {
      started = performance.now();
      link = await startLink();
      restartMs.push(performance.now() - started);
      if (round < 4) link.close();
    }

    const ceiling = await execCeiling(gatedContainer);
    const seconds = { host: [] as number[], gated: [] as number[] };
    for (let round = 0; round < DOWNLOADS; round++) {
      const [direct] = await python(host, DOWNLOAD, [
        `http://127.0.0.1:${server.port}/big`,
        String(DOWNLOAD_BYTES),
      ]);
      const [linked] = await python(gated, DOWNLOAD, [
        `http://bench.test:${server.port}/big`,
        String(DOWNLOAD_BYTES),
      ]);
      seconds.host.push(direct ?? NaN);
      seconds.gated.push(linked ?? NaN);
    }
    const mbps = (values: number[]) => DOWNLOAD_BYTES / 1024 ** 2 / median(values);
    const ratio = mbps(seconds.gated) / mbps(seconds.host);

    const count = String(SMALL_REQUESTS);
    const directMs = await python(host, SMALL, ['127.0.0.1', String(server.port), '/small', count]);
    const linkedMs = await python(gated, SMALL, [
      '127.0.0.1',
      '3128',
      `http://bench.test:${server.port}/small`,
      count,
    ]);
    // The first requests open connections on both sides; the steady state is what is compared.
    const added = median(linkedMs.slice(20)) - median(directMs.slice(20));

    console.log(
      `load average ${os
        .loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')}`,
    );
    console.log(
      `link start: ${firstStartMs.toFixed(0)} ms the first time, ${median(restartMs).toFixed(0)} ms after`,
    );
    console.log(`download ${DOWNLOAD_BYTES / 1024 ** 2} MB x${DOWNLOADS} (median)`);
    console.log(`  host mode:      ${mbps(seconds.host).toFixed(0)} MB/s`);
    console.log(`  gated (link):   ${mbps(seconds.gated).toFixed(0)} MB/s`);
    console.log(`  ratio:          ${ratio.toFixed(2)}x (target >= 0.5x)`);
    console.log(
      `  docker exec -i: ${ceiling.toFixed(0)} MB/s (raw bytes into an exec: the channel's ceiling)`,
    );
    console.log(`small requests x${SMALL_REQUESTS} on one connection (median after 20)`);
    console.log(`  host mode:      ${median(directMs.slice(20)).toFixed(3)} ms`);
    console.log(`  gated (link):   ${median(linkedMs.slice(20)).toFixed(3)} ms`);
    console.log(`  added:          ${added.toFixed(3)} ms (target <= 2 ms)`);
    return ratio >= 0.5 && added <= 2 ? 0 : 1;
  } finally {
    link?.close();
    server.close();
    const labelled = await docker.listContainers({
      all: true,
      filters: { label: [`${BENCH_LABEL}=sandbox-link`] },
    });
    await Promise.all(labelled.map((info) => docker.getContainer(info.Id).remove({ force: true })));
  }
}

runBench(main);
