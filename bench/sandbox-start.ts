/**
 * Sandbox start time: from `POST /api/v1/sandboxes` to RUNNING through the Docker provider, against a bare
 * dockerode create + start of the same image with the same container options.
 *
 * Starts the real service (memory secret store, no network for containers) on 127.0.0.1. After one warm-up
 * run each (the service learns the image's user once per image), the two paths alternate for
 * `--runs` repetitions; it prints both medians and their ratio and exits 1 when the service takes more than
 * 1.5 times as long. Every container and volume it made is removed, also on failure.
 *
 *   npx tsx bench/sandbox-start.ts [--runs 7]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Docker from 'dockerode';
import pino from 'pino';
import { createService, type DockhandService } from '../src/service/index';
import { isRootUser } from '../src/service/sandbox/docker/docker-images';
import { installFilter } from '../src/service/sandbox/docker/labels';
import { MemorySecretStore } from '../src/service/secrets/memory-store';
import type { SandboxInfo } from '../src/shared/api/sandboxes';
import { baselineContainer, median, runBench } from './support/bench-kit';

const MAX_RATIO = 1.5;
const IMAGE = process.env.DOCKHAND_SANDBOX_IMAGE || 'dockhand/sandbox:1.0.0';
const BENCH_INSTANCE = `bench-${process.pid}`;

const docker = new Docker();

/** Milliseconds from the create request to RUNNING through the service's HTTP API, and the user it chose. */
async function throughService(service: DockhandService): Promise<{ elapsed: number; user: string | null }> {
  const started = performance.now();
  const response = await fetch(`${service.url}/api/v1/sandboxes`, {
    method: 'POST',
    headers: { 'X-Session-API-Key': service.context.sessionKey.current },
  });
  if (!response.ok) throw new Error(`Create failed: ${response.status} ${await response.text()}`);
  const { id } = (await response.json()) as SandboxInfo;
  const settled = await service.context.sandboxes.settled(id);
  const elapsed = performance.now() - started;
  if (settled.status !== 'RUNNING')
    throw new Error(`Sandbox ${id} ended ${settled.status}: ${settled.error}`);
  // The user the provider chose for the image, as its container runs it.
  const configured = (await docker.getContainer(`dockhand-${id}`).inspect()).Config.User;
  await service.context.sandboxes.delete(id);
  return { elapsed, user: configured && !isRootUser(configured) ? configured : null };
}

/** Milliseconds for dockerode to create and start a container with the provider's options. */
async function bareDockerode(user: string | null): Promise<number> {
  const baseline = baselineContainer(docker, {
    instanceId: BENCH_INSTANCE,
    image: IMAGE,
    user,
    network: 'none',
  });
  const sandboxId = baseline.sandboxId;
  const started = performance.now();
  const container = await baseline.create();
  await container.start();
  const elapsed = performance.now() - started;
  await container.remove({ force: true, v: true });
  await docker.getVolume(`dockhand-ws-${sandboxId}`).remove();
  return elapsed;
}

async function removeLabelled(filters: string[]): Promise<void> {
  for (const info of await docker.listContainers({ all: true, filters: { label: filters } })) {
    await docker
      .getContainer(info.Id)
      .remove({ force: true, v: true })
      .catch(() => undefined);
  }
  const { Volumes: volumes } = await docker.listVolumes({ filters: { label: filters } });
  for (const volume of volumes ?? [])
    await docker
      .getVolume(volume.Name)
      .remove()
      .catch(() => undefined);
}

function instanceOf(service: DockhandService): string {
  const row = service.db.prepare("SELECT value FROM service_meta WHERE key = 'instance_id'").get() as {
    value: string;
  };
  return row.value;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a positive whole number');
  await docker
    .getImage(IMAGE)
    .inspect()
    .catch(() => {
      throw new Error(`The image ${IMAGE} is missing: run \`npm run sandbox:image\` first.`);
    });

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dockhand-bench-'));
  const service = await createService({
    dataDir,
    port: 0,
    logger: pino({ level: 'silent' }),
    secretStore: new MemorySecretStore(),
    sandbox: { image: IMAGE, network: 'none', idlePauseSeconds: 0, onClose: 'leave' },
  });
  const instance = instanceOf(service);
  try {
    // The warm-up also tells which user the provider runs this image as, for the bare path's options.
    const warm = await throughService(service);
    const warmBare = await bareDockerode(warm.user);
    console.log(`warm-up: service ${warm.elapsed.toFixed(0)} ms, dockerode ${warmBare.toFixed(0)} ms`);

    const serviceTimes: number[] = [];
    const bareTimes: number[] = [];
    for (let run = 0; run < runs; run++) {
      serviceTimes.push((await throughService(service)).elapsed);
      bareTimes.push(await bareDockerode(warm.user));
    }
    const serviceMedian = median(serviceTimes);
    const bareMedian = median(bareTimes);
    const ratio = serviceMedian / bareMedian;
    const list = (times: number[]) => times.map((time) => time.toFixed(0)).join(', ');
    console.log(`image ${IMAGE}, network none, ${runs} runs each`);
    console.log(
      `service, create request -> RUNNING: median ${serviceMedian.toFixed(0)} ms (${list(serviceTimes)})`,
    );
    console.log(
      `dockerode create + start:           median ${bareMedian.toFixed(0)} ms (${list(bareTimes)})`,
    );
    console.log(`ratio ${ratio.toFixed(2)} (limit ${MAX_RATIO})`);
    return ratio > MAX_RATIO ? 1 : 0;
  } finally {
    await service.close();
    await removeLabelled(installFilter(instance));
    await removeLabelled(installFilter(BENCH_INSTANCE));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runBench(main);
