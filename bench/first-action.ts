/**
 * Time to the agent's first action: from `POST /api/conversations` to the first model request the scripted
 * server receives, and to the result of the agent's first command, with no repository and with a small
 * repository cloned over git's smart HTTP on 127.0.0.1 (warm, also the same repository copied from this
 * machine); cold (no warm pool) and warm (a pool of one). Beside
 * them, in the same run, a raw dockerode create + start + one exec of the same image with the same options.
 *
 * After one warm-up each, the variants alternate for `--runs` rounds; it prints every median, the ratios to
 * the raw baseline, the pool's cost at rest (the paused container's memory from the engine's stats, the
 * service's resident memory with and without a pool) and the load average. Exits 1 when a target is missed:
 * cold, time to the first model request at most 1.3x the raw baseline; warm, at most 150 ms.
 *
 *   node --import tsx --import ./scripts/lib/raw-import.mjs bench/first-action.ts [--runs 7] [--network gated]
 */
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { dockerExec } from '../src/service/sandbox/docker/docker-exec';
import { volumeName } from '../src/service/sandbox/sandbox-id';
import type { V0Event } from '../src/shared/api/events';
import type { ServerInfo } from '../src/shared/api/server';
import {
  closeSandboxService,
  docker,
  dockerSkipReason,
  instanceId,
  removeLabelled,
  startSandboxService,
  TEST_IMAGE,
  useScriptedModel,
} from '../test/sandbox/support';
import { startGitHubRepositories, type GitHubRepositories } from '../test/support/github-repositories';
import { type LocalGitRepo, makeLocalGitRepo } from '../test/support/local-git-repo';
import { startScriptedLlm, type ScriptedLlm } from '../test/support/scripted-llm';
import type { TestService } from '../test/support/service';
import { until } from '../test/support/until';
import { baselineContainer, median, runBench } from './support/bench-kit';

const COLD_MAX_RATIO = 1.3;
const WARM_MAX_MS = 150;
const TOKEN = 'ghp_first-action-bench-7d21';
const REPOSITORY = 'bench/app';
const TITLE_MARKER = '[dockhand:title]';
const RAW_INSTANCE = `bench-first-action-${process.pid}`;
const APP_FILES = {
  'README.md': '# app\n',
  'app.py': 'def add(a, b):\n    return a + b\n',
  'test_app.py': 'from app import add\nassert add(2, 3) == 5\n',
};
const REPOSITORY_MICROAGENT = '---\nname: repo\n---\nRun the tests with python3.\n';

interface Times {
  firstRequest: number;
  firstResult: number;
}

interface Variant {
  name: string;
  run(): Promise<Times>;
}

async function serverInfo(service: TestService): Promise<ServerInfo> {
  return (await service.api('GET', '/server_info')).json as ServerInfo;
}

/** Waits until the service's pool holds as many ready containers as it should, and none is being made. */
async function poolSettled(service: TestService): Promise<ServerInfo['sandbox']['warm_pool']> {
  const info = await until(
    () => serverInfo(service),
    ({ sandbox: { warm_pool: pool } }) => pool.filling === 0 && pool.ready >= pool.size,
    'the warm pool to fill',
  );
  return info.sandbox.warm_pool;
}

/**
 * One conversation: POST, the first agent request (not the title's), the first command's result. `repository`
 * is the `repository` of the request, if any.
 */
async function conversation(
  service: TestService,
  llm: ScriptedLlm,
  repository: string | null,
): Promise<Times> {
  const callsBefore = llm.calls.length;
  llm.push(
    { toolCalls: [{ name: 'execute_bash', args: { command: 'echo first-action', security_risk: 'LOW' } }] },
    { text: 'Done.' },
  );
  const body = {
    initial_user_msg: 'Run one command',
    ...(repository === REPOSITORY
      ? { repository, git_provider: 'github' }
      : repository
        ? { repository }
        : {}),
  };
  const wallStart = Date.now();
  const started = performance.now();
  const created = await service.api('POST', '/api/conversations', { body });
  if (created.status !== 200) throw new Error(`create failed: ${created.status} ${created.text}`);
  const id = (created.json as { conversation_id: string }).conversation_id;
  // Polling only tells when to look: the times are the server's and the event's own records.
  const agentCall = () => llm.calls.slice(callsBefore).find((call) => !call.rawBody.includes(TITLE_MARKER));
  const firstCall = await until(async () => agentCall(), Boolean, 'the first model request');
  const result = await until(
    async () =>
      ((await service.api('GET', `/api/conversations/${id}/events?limit=100`)).json as { events: V0Event[] })
        .events,
    (events) => events.some((event) => event.observation === 'run'),
    'the first command result',
  ).then((events) => events.find((event) => event.observation === 'run') as V0Event);
  const content = String(result.content);
  if (!content.includes('first-action')) throw new Error(`unexpected command result: ${content}`);
  await until(
    async () => (await service.api('GET', `/api/conversations/${id}`)).json as Record<string, unknown>,
    (info) => info.agent_state === 'awaiting_user_input' || info.status === 'STOPPED',
    'the agent to finish',
  );
  await service.api('DELETE', `/api/conversations/${id}`);
  return {
    firstRequest: (firstCall?.startedAt ?? NaN) - started,
    firstResult: Date.parse(String(result.timestamp)) - wallStart,
  };
}

/** The baseline: dockerode create + start + one exec, with the options the service gives its containers. */
async function rawDocker(user: string | null): Promise<Times> {
  const baseline = baselineContainer(docker, {
    instanceId: RAW_INSTANCE,
    image: TEST_IMAGE,
    user,
    network: 'host',
  });
  const sandboxId = baseline.sandboxId;
  const started = performance.now();
  const container = await baseline.create();
  await container.start();
  const createdAndStarted = performance.now() - started;
  const result = await dockerExec(container, ['echo', 'first-action'], { user: user ?? 'root' });
  const elapsed = performance.now() - started;
  if (result.exitCode !== 0) throw new Error(`raw exec failed: ${result.stderr}`);
  await container.remove({ force: true, v: true });
  await docker.getVolume(volumeName(sandboxId)).remove();
  return { firstRequest: createdAndStarted, firstResult: elapsed };
}

/** The resident memory of this process now, in MiB (after a collection when exposed). */
function residentMiB(): number {
  (globalThis as { gc?: () => void }).gc?.();
  const status = readFileSync('/proc/self/status', 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kib / 1024;
}

/** What a ready pool costs at rest: the paused containers' memory as the engine reports it. */
async function pausedContainerMiB(service: TestService): Promise<number[]> {
  const instance = instanceId(service);
  const paused = await docker.listContainers({
    all: true,
    filters: { label: [`dev.dockhand.instance=${instance}`, 'dev.dockhand.pool=true'], status: ['paused'] },
  });
  return Promise.all(
    paused.map(async (info) => {
      const stats = await docker.getContainer(info.Id).stats({ stream: false });
      return (stats.memory_stats.usage ?? 0) / 1024 ** 2;
    }),
  );
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { runs: { type: 'string', default: '7' }, network: { type: 'string', default: 'host' } },
  });
  const runs = Number(values.runs);
  // `gated`: the sandboxes' only way out is their link (the repository variants, whose git server the
  // sandbox reaches on 127.0.0.1, need host networking and are left out).
  const gated = values.network === 'gated';
  if (!gated && values.network !== 'host') throw new Error('--network must be host or gated');
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a positive whole number');
  const skip = await dockerSkipReason();
  if (skip) throw new Error(`Cannot run: ${skip}`);

  const llm = await startScriptedLlm([], { channels: [{ marker: TITLE_MARKER, step: { text: 'Bench' } }] });
  let repositories: GitHubRepositories | undefined;
  let local: LocalGitRepo | undefined;
  const services: TestService[] = [];
  try {
    repositories = await startGitHubRepositories(TOKEN, [
      {
        name: REPOSITORY,
        branches: {
          main: {
            ...APP_FILES,
            '.openhands/microagents/repo.md': REPOSITORY_MICROAGENT,
          },
        },
      },
    ]);
    local = makeLocalGitRepo({ ...APP_FILES, '.openhands/microagents/repo.md': REPOSITORY_MICROAGENT });
    // Host networking so the sandbox reaches the git server on 127.0.0.1; the raw baseline uses it too.
    const start = async (warmPool: number) => {
      const service = await startSandboxService(repositories?.serviceConfig, {
        network: gated ? 'gated' : 'host',
        warmPool,
      });
      services.push(service);
      await useScriptedModel(service, llm);
      await repositories?.storeToken(service);
      return service;
    };
    const localRoot = local.root;
    const cold = await start(0);
    const warm = await start(1);
    const settle = () => poolSettled(warm);

    const user = (await docker.getImage(TEST_IMAGE).inspect()).Config.User || 'dockhand';
    const variants: Variant[] = [
      { name: 'raw docker create + start + exec', run: () => rawDocker(user) },
      { name: 'cold, no repository', run: () => conversation(cold, llm, null) },
      { name: 'cold, repository', run: () => conversation(cold, llm, REPOSITORY) },
      { name: 'warm, no repository', run: () => conversation(warm, llm, null) },
      { name: 'warm, repository', run: () => conversation(warm, llm, REPOSITORY) },
      { name: 'warm, local repository', run: () => conversation(warm, llm, localRoot) },
    ].filter((variant) => !gated || !variant.name.endsWith(', repository'));
    const samples = new Map<string, Times[]>(variants.map((variant) => [variant.name, []]));
    for (let round = -1; round < runs; round++) {
      for (const variant of variants) {
        await settle();
        const times = await variant.run();
        if (round >= 0) samples.get(variant.name)?.push(times);
      }
    }

    const [load1, load5] = os.loadavg();
    const medians = new Map(
      [...samples].map(([name, times]) => [
        name,
        {
          firstRequest: median(times.map((t) => t.firstRequest)),
          firstResult: median(times.map((t) => t.firstResult)),
        },
      ]),
    );
    const raw = medians.get(variants[0]?.name ?? '') as Times;
    const pad = (text: string, width: number) => text.padEnd(width);
    console.log(
      `image ${TEST_IMAGE}, network ${gated ? 'gated' : 'host'}, ${runs} alternating runs each, medians in ms`,
    );
    console.log(`${pad('', 34)}${pad('first model request', 26)}first command result`);
    for (const [name, m] of medians) {
      const isRaw = m === raw;
      const ratio = (value: number, base: number) => (isRaw ? '' : ` (${(value / base).toFixed(2)}x)`);
      console.log(
        `${pad(name, 34)}${pad(`${m.firstRequest.toFixed(0)}${ratio(m.firstRequest, raw.firstRequest)}`, 26)}` +
          `${m.firstResult.toFixed(0)}${ratio(m.firstResult, raw.firstResult)}`,
      );
    }
    console.log('(raw: "first model request" is create + start, "first command result" adds the exec)');

    const pool = await settle();
    const pausedMiB = await pausedContainerMiB(warm);
    console.log(
      `warm pool at rest: ${pool.ready} paused container(s), ${pausedMiB.map((m) => m.toFixed(1)).join(', ')} MiB ` +
        `(engine stats, memory usage); this process ${residentMiB().toFixed(0)} MiB resident`,
    );
    console.log(
      `load average ${load1?.toFixed(2)} / ${load5?.toFixed(2)} (1 / 5 min), ${os.cpus().length} cores`,
    );

    const coldRatio = (medians.get('cold, no repository')?.firstRequest ?? NaN) / raw.firstResult;
    const warmMs = medians.get('warm, no repository')?.firstRequest ?? NaN;
    console.log(
      `targets: cold first request ${coldRatio.toFixed(2)}x raw create + start + exec (limit ${COLD_MAX_RATIO}), ` +
        `warm first request ${warmMs.toFixed(0)} ms (limit ${WARM_MAX_MS})`,
    );
    return coldRatio <= COLD_MAX_RATIO && warmMs <= WARM_MAX_MS ? 0 : 1;
  } finally {
    for (const service of services) await closeSandboxService(service);
    await removeLabelled(`dev.dockhand.instance=${RAW_INSTANCE}`);
    await Promise.all([llm.close(), repositories?.close()]);
    if (local) rmSync(path.dirname(local.root), { recursive: true, force: true });
  }
}

runBench(main);
