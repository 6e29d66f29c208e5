import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { containerOptions, DEFAULT_LIMITS } from '../../src/service/sandbox/docker/container-options';
import { readAheadRoots } from '../../src/service/conversations/start-survey';
import { DockerSandboxFiles } from '../../src/service/sandbox/files/docker-files';
import { newSandboxId } from '../../src/service/sandbox/sandbox-id';
import type { V0Event } from '../../src/shared/api/events';
import type { SandboxInfo } from '../../src/shared/api/sandboxes';
import type { ServerInfo } from '../../src/shared/api/server';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import type { TestService } from '../support/service';
import { until } from '../support/until';
import {
  closeSandboxService,
  containerState,
  conversationEvents,
  createSandbox,
  docker,
  dockerSkipReason,
  instanceId,
  removeTestImage,
  startSandboxService,
  TEST_IMAGE,
  untilConversation,
  useScriptedModel,
  volumeExists,
} from './support';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the warm pool tests: ${skip}`);

// The test suite turns the pool off (vitest.config.ts); here the setting decides, as for users.
vi.stubEnv('DOCKHAND_SANDBOX_WARM_POOL', '');

const SECRET = 'pool-secret-value-4f1e';
const OTHER_REPO = 'dockhand/sandbox-pool-test';
const OTHER_TAG = `${OTHER_REPO}:${process.pid}`;

type Pool = ServerInfo['sandbox']['warm_pool'];

async function pool(service: TestService): Promise<Pool> {
  return ((await service.api('GET', '/server_info')).json as ServerInfo).sandbox.warm_pool;
}

/** The pool's containers (claimed or not) of the service, as the engine lists them. */
async function pooledContainers(service: TestService, status?: string) {
  return docker.listContainers({
    all: true,
    filters: {
      label: [`dev.dockhand.instance=${instanceId(service)}`, 'dev.dockhand.pool=true'],
      ...(status ? { status: [status] } : {}),
    },
  });
}

/** Waits until the pool holds `ready` paused containers and makes none; returns their sandbox ids. */
async function untilReady(service: TestService, ready: number): Promise<string[]> {
  await until(
    () => pool(service),
    (p) => p.ready === ready && p.filling === 0,
    `${ready} ready warm container(s)`,
  );
  const paused = await until(
    () => pooledContainers(service, 'paused'),
    (list) => list.length === ready,
    `${ready} paused container(s)`,
  );
  return paused.map((info) => info.Labels['dev.dockhand.sandbox_id'] as string);
}

describe.skipIf(skip !== null)('the warm sandbox pool', () => {
  let service: TestService | undefined;
  let llm: ScriptedLlm;

  beforeAll(async () => {
    llm = await startScriptedLlm([], {
      channels: [{ marker: '[dockhand:title]', step: { text: 'Pool' } }],
    });
  });
  afterEach(async () => {
    await closeSandboxService(service);
    service = undefined;
  });
  afterAll(async () => {
    await llm?.close();
    await removeTestImage(OTHER_TAG);
  });

  it('keeps one paused container that holds no secret, and a conversation claims it with its secrets', async () => {
    service = await startSandboxService();
    await useScriptedModel(service, llm);
    await service.api('POST', '/api/secrets', { body: { name: 'POOL_SECRET', value: SECRET } });
    const [pooledId] = await untilReady(service, 1);
    expect(await pool(service)).toEqual({ size: 1, ready: 1, filling: 0, spec: TEST_IMAGE, error: null });
    // Not a sandbox yet: not listed, not live.
    const info = (await service.api('GET', '/server_info')).json as ServerInfo;
    expect(info.live_sandboxes).toBe(0);
    expect((await service.api('GET', '/api/v1/sandboxes/search')).json).toMatchObject({ items: [] });
    const inspected = await docker.getContainer(`dockhand-${pooledId}`).inspect();
    expect(
      JSON.stringify([inspected.Config.Env, inspected.Config.Labels, inspected.Config.Cmd]),
    ).not.toContain(SECRET);

    llm.push(
      {
        toolCalls: [
          { name: 'execute_bash', args: { command: 'echo "s=$POOL_SECRET"', security_risk: 'LOW' } },
        ],
      },
      { text: 'Done.' },
    );
    const created = await service.api('POST', '/api/conversations', { body: { initial_user_msg: 'go' } });
    const id = (created.json as { conversation_id: string }).conversation_id;
    const done = await untilConversation(
      service,
      id,
      (c) => c.agent_state === 'awaiting_user_input' || c.status === 'STOPPED',
      'the agent to finish',
    );
    expect(done).toMatchObject({ status: 'RUNNING', sandbox_id: pooledId });
    const run = (await conversationEvents(service, id)).find((e: V0Event) => e.observation === 'run');
    // The secret reached the claimed container's shell (and was masked in the event).
    expect(run?.content).toMatch(/^s=<secret_hidden>\n/);
    expect(await containerState(pooledId as string)).toBe('running');

    // The pool refills in the background with another container.
    const [refilled] = await untilReady(service, 1);
    expect(refilled).not.toBe(pooledId);
  });

  it('never counts a paused pooled container against the live-sandbox cap', async () => {
    service = await startSandboxService();
    await service.api('POST', '/api/settings', { body: { max_live_sandboxes: 1, sandbox_warm_pool: 1 } });
    await untilReady(service, 1);
    const first = await createSandbox(service);
    expect(first.status).toBe('RUNNING');
    await untilReady(service, 1);
    const info = (await service.api('GET', '/server_info')).json as ServerInfo;
    expect(info.live_sandboxes).toBe(1);
    expect((await service.api('GET', `/api/v1/sandboxes/${first.id}`)).json).toMatchObject({
      status: 'RUNNING',
    });
  });

  it('gives concurrent claims different containers', async () => {
    const started = (service = await startSandboxService());
    await service.api('POST', '/api/settings', { body: { sandbox_warm_pool: 2 } });
    const pooled = await untilReady(service, 2);
    // Pooled containers stay out of the refill while the claims run (it starts 2 s after a claim).
    const sandboxes: SandboxInfo[] = await Promise.all([1, 2, 3].map(() => createSandbox(started)));
    const ids = sandboxes.map((sandbox) => sandbox.id);
    expect(new Set(ids).size).toBe(3);
    expect(sandboxes.every((sandbox) => sandbox.status === 'RUNNING')).toBe(true);
    expect(ids.filter((id) => pooled.includes(id)).sort()).toEqual([...pooled].sort());
  });

  it('replaces its containers when the default spec or its image changes, and turns off at 0', async () => {
    await docker.getImage(TEST_IMAGE).tag({ repo: OTHER_REPO, tag: String(process.pid) });
    const started = (service = await startSandboxService());
    const [first] = await untilReady(service, 1);

    await service.api('POST', '/api/settings', { body: { sandbox_runtime_container_image: OTHER_TAG } });
    await until(
      () => containerState(first as string),
      (state) => state === null,
      'the old spec container to go',
    );
    expect(await volumeExists(first as string)).toBe(false);
    const [forOtherSpec] = await untilReady(service, 1);
    expect((await pool(service)).spec).toBe(OTHER_TAG);

    // The same tag now names another image (as a rebuild or a pull does).
    const committed = await docker.getContainer(`dockhand-${forOtherSpec}`).commit({
      repo: OTHER_REPO,
      tag: String(process.pid),
      changes: ['LABEL dev.dockhand.test=rebuilt'],
      pause: false,
    });
    expect(committed.Id).toBeTruthy();
    await service.api('POST', '/api/settings', { body: { sandbox_runtime_container_image: OTHER_TAG } });
    await until(
      () => containerState(forOtherSpec as string),
      (state) => state === null,
      'the old image container to go',
    );
    const [forNewImage] = await untilReady(service, 1);
    const rebuilt = await docker.getImage(OTHER_TAG).inspect();
    expect((await docker.getContainer(`dockhand-${forNewImage}`).inspect()).Image).toBe(rebuilt.Id);

    await service.api('POST', '/api/settings', {
      body: { sandbox_runtime_container_image: OTHER_TAG, sandbox_warm_pool: 0 },
    });
    await until(
      () => pooledContainers(started),
      (list) => list.length === 0,
      'the pool to empty',
    );
    expect(await pool(service)).toMatchObject({ size: 0, ready: 0, spec: null });
  });

  it('is removed at close, and a restart sweeps unclaimed containers a crash left but keeps claimed ones', async () => {
    service = await startSandboxService();
    const [pooledId] = await untilReady(service, 1);
    const claimed = await createSandbox(service);
    expect(claimed.id).toBe(pooledId);
    await untilReady(service, 1);
    const [unclaimed] = (await pooledContainers(service, 'paused')).map(
      (info) => info.Labels['dev.dockhand.sandbox_id'] as string,
    );
    const { dataDir } = service;
    const instance = instanceId(service);
    await service.close({ keepData: true });
    service = undefined;
    expect(await containerState(unclaimed as string)).toBeNull();
    expect(await volumeExists(unclaimed as string)).toBe(false);
    expect(await containerState(claimed.id)).not.toBeNull();

    // What a crash leaves: a pool container of this install that no sandbox record owns.
    const orphanId = newSandboxId();
    const orphan = await docker.createContainer(
      containerOptions({
        sandboxId: orphanId,
        instanceId: instance,
        spec: {
          id: TEST_IMAGE,
          command: ['sleep', 'infinity'],
          initialEnv: {},
          workingDir: '/workspace/project',
          title: '',
          description: '',
        },
        user: null,
        network: 'none',
        limits: DEFAULT_LIMITS,
        allowSudo: false,
        pooled: true,
      }),
    );
    await orphan.start();
    await orphan.pause();

    const restarted = (service = await startSandboxService({ dataDir }));
    await until(
      () => containerState(orphanId),
      (state) => state === null,
      'the orphan to be swept',
    );
    expect(await volumeExists(orphanId)).toBe(false);
    expect((await service.api('GET', `/api/v1/sandboxes/${claimed.id}`)).json).toMatchObject({
      status: 'PAUSED',
    });
    await until(
      () => pool(restarted),
      (p) => p.ready === 1,
      'the pool to fill again',
    );
  });

  it('reads ahead what a start reads, as the user sees it, and hands it out once', async () => {
    const started = (service = await startSandboxService());
    const sandboxes = started.service.context.sandboxes;
    const [pooledId] = await untilReady(started, 1);
    const claimed = await createSandbox(started);
    expect(claimed.id).toBe(pooledId);
    const readAhead = sandboxes.takeReadAhead(claimed.id);
    expect(sandboxes.takeReadAhead(claimed.id)).toBeNull();
    const container = docker.getContainer(`dockhand-${claimed.id}`);
    const { Config } = await container.inspect();
    const user = Config.User || 'root';
    const asUser = await new DockerSandboxFiles(container, { user }).survey(
      readAheadRoots(Config.WorkingDir),
    );
    expect(readAhead).not.toBeNull();
    expect(readAhead?.roots).toEqual(asUser?.roots);
    expect([...(readAhead?.entries.values() ?? [])].map(({ path, type, uid }) => [path, type, uid])).toEqual(
      [...(asUser?.entries.values() ?? [])].map(({ path, type, uid }) => [path, type, uid]),
    );
    expect(readAhead?.entries.get(Config.WorkingDir)).toMatchObject({ type: 'directory' });

    // Once anyone has had the sandbox's workspace, what was read ahead no longer stands.
    await untilReady(started, 1);
    await started.api('POST', '/api/settings', { body: { sandbox_warm_pool: 0 } });
    const [fresh, touched] = [await createSandbox(started), await createSandbox(started)];
    expect(sandboxes.takeReadAhead(fresh.id)).not.toBeNull();
    await sandboxes.workspace(touched.id);
    expect(sandboxes.takeReadAhead(touched.id)).toBeNull();
  });
});
