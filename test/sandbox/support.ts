import { rmSync } from 'node:fs';
import Docker from 'dockerode';
import pino from 'pino';
import { expect } from 'vitest';
import { MemorySecretStore } from '../../src/service/secrets/memory-store';
import { SessionKey } from '../../src/service/secrets/session-key';
import { createSandboxLayer, type SandboxLayer } from '../../src/service/sandbox/sandbox-layer';
import type { SandboxUsers } from '../../src/service/sandbox/sandbox-users';
import { type Db, openDatabase } from '../../src/service/storage/database';
import { dockerExec } from '../../src/service/sandbox/docker/docker-exec';
import type { SandboxConfig } from '../../src/service/sandbox/sandbox-config';
import type { ServiceConfig } from '../../src/service/config';
import type { V0Event } from '../../src/shared/api/events';
import type { SandboxInfo, SandboxStatus } from '../../src/shared/api/sandboxes';
import type { ScriptedLlm } from '../support/scripted-llm';
import { startTestService, tempDataDir, type TestService } from '../support/service';
import { dockerUnavailableReason } from '../support/test-sandboxes';
import { until } from '../support/until';

/** The offline sandbox image the tests run (scripts/sandbox-image.sh builds it). */
export const TEST_IMAGE = process.env.DOCKHAND_SANDBOX_IMAGE || 'dockhand/sandbox:1.0.0';

export const docker = new Docker();

/** Removes a test's image (see settledWithin: seen not to settle while other tests build images). */
export async function removeTestImage(tag: string): Promise<void> {
  await settledWithin(docker.getImage(tag).remove({ force: true }), `removing the image ${tag}`);
}

/**
 * Waits for a clean-up call to the engine, whatever its outcome, for 20 s at most: dockerode's answer to a
 * removal has been seen never to come, and a test's clean-up must not hang the run (it says what it left).
 */
async function settledWithin(call: Promise<unknown>, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const answered = await Promise.race([
    call.then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), 20_000))),
  ]);
  clearTimeout(timer);
  if (!answered) console.warn(`The Docker engine did not answer within 20 s: ${what}`);
}

/** Why the Docker tests cannot run here, or null; with `CI` set, throws instead. */
export function dockerSkipReason(): Promise<string | null> {
  return dockerUnavailableReason(docker, TEST_IMAGE);
}

/** Sandbox options for tests: the offline image, no network, no idle pausing. */
export const TEST_SANDBOX: Partial<SandboxConfig> = {
  image: TEST_IMAGE,
  network: 'none',
  idlePauseSeconds: 0,
};

export function startSandboxService(
  config: Partial<ServiceConfig> = {},
  sandbox: Partial<SandboxConfig> = {},
): Promise<TestService> {
  return startTestService({ ...config, sandbox: { ...TEST_SANDBOX, ...sandbox } });
}

export interface TestSandboxLayer {
  layer: SandboxLayer;
  /** Stops the layer, removes what it labelled and its data folder. */
  close(): Promise<void>;
}

/**
 * The sandbox layer alone, as createService builds it, on its own data folder, with the test standing in for
 * the conversations on the sandboxes (`users`: which are idle, what a pause or delete stops).
 */
export async function startSandboxLayer(options: {
  users: SandboxUsers;
  maxLive: number;
  sandbox?: Partial<SandboxConfig>;
}): Promise<TestSandboxLayer> {
  const dataDir = tempDataDir();
  const db = openDatabase(dataDir);
  const logger = pino({ level: 'silent' });
  const layer = createSandboxLayer({
    dataDir,
    db,
    settings: () => ({
      provider: null,
      warmPool: 0,
      maxLive: options.maxLive,
      runtimeImage: null,
      baseImage: null,
      network: 'host',
    }),
    sessionKey: await SessionKey.load({ store: new MemorySecretStore(), dataDir, logger }),
    logger,
    version: 'test',
    startedAt: new Date(),
    environment: process.env,
    config: { ...TEST_SANDBOX, ...options.sandbox },
    users: options.users,
    agentServerUrls: () => [],
    // Host networking: no link and no egress policy apply; nothing leaves by policy.
    egressPolicy: () => ({ preset: 'offline', allow: [], deny: [], modelHosts: [], serviceHosts: [] }),
    servicePort: () => 0,
    egressHoldMs: () => 0,
  });
  await layer.start();
  const label = `dev.dockhand.instance=${instanceIdIn(db)}`;
  return {
    layer,
    close: async () => {
      try {
        await layer.sandboxes.close();
        await removeLabelled(label);
      } finally {
        db.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

function instanceIdIn(db: Db): string {
  const row = db.prepare("SELECT value FROM service_meta WHERE key = 'instance_id'").get() as {
    value: string;
  };
  return row.value;
}

/** The install id that labels a service's containers and volumes. */
export function instanceId(service: TestService): string {
  return instanceIdIn(service.service.db);
}

/** Removes every container (with its anonymous volumes) and named volume carrying `label` (`key=value`). */
export async function removeLabelled(label: string): Promise<void> {
  const containers = await docker.listContainers({ all: true, filters: { label: [label] } });
  await Promise.all(
    containers.map(async (info) => {
      const container = docker.getContainer(info.Id);
      // As the service does: a paused container is unpaused before it is killed.
      if (info.State === 'paused') await settledWithin(container.unpause(), `unpausing ${info.Id}`);
      await settledWithin(container.remove({ force: true, v: true }), `removing ${info.Id}`);
    }),
  );
  const { Volumes: volumes } = await docker.listVolumes({ filters: { label: [label] } });
  await Promise.all(
    (volumes ?? []).map((volume) =>
      settledWithin(docker.getVolume(volume.Name).remove(), `removing volume ${volume.Name}`),
    ),
  );
}

/** Stops a service the tests started, if any, and removes the containers and volumes it labelled. */
export async function closeSandboxService(service: TestService | undefined): Promise<void> {
  if (!service) return;
  const label = `dev.dockhand.instance=${instanceId(service)}`;
  try {
    await service.close();
  } finally {
    await removeLabelled(label);
  }
}

/** Saves settings that make the scripted `llm` the service's model, with `extra` settings. */
export async function useScriptedModel(
  service: TestService,
  llm: ScriptedLlm,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await service.api('POST', '/api/settings', {
    body: { llm_model: 'openai/gpt-4o', llm_api_key: 'sk-test', llm_base_url: llm.baseUrl, ...extra },
  });
}

/** The first 100 events of a conversation, oldest first. */
export async function conversationEvents(service: TestService, id: string): Promise<V0Event[]> {
  return (
    (await service.api('GET', `/api/conversations/${id}/events?limit=100`)).json as { events: V0Event[] }
  ).events;
}

/** A conversation as `GET /api/conversations/{id}` answers it. */
export async function conversationInfo(service: TestService, id: string): Promise<Record<string, unknown>> {
  return (await service.api('GET', `/api/conversations/${id}`)).json as Record<string, unknown>;
}

/** Polls the conversation until `done` holds for it, and returns it. */
export function untilConversation(
  service: TestService,
  id: string,
  done: (conversation: Record<string, unknown>) => boolean,
  what: string,
): Promise<Record<string, unknown>> {
  return until(() => conversationInfo(service, id), done, what);
}

/** Whether a conversation's start has ended, either way: the agent waits, has finished, or it stopped. */
export function startEnded(conversation: Record<string, unknown>): boolean {
  return (
    conversation.agent_state === 'awaiting_user_input' ||
    conversation.agent_state === 'finished' ||
    conversation.status === 'STOPPED'
  );
}

/** Creates a conversation with `body` and waits until its start has ended; its id and info. */
export async function createConversation(
  service: TestService,
  body: Record<string, unknown>,
): Promise<{ id: string; info: Record<string, unknown> }> {
  const created = await service.api('POST', '/api/conversations', { body });
  expect(created.status, JSON.stringify(created.json)).toBe(200);
  const id = (created.json as { conversation_id: string }).conversation_id;
  return { id, info: await untilConversation(service, id, startEnded, 'the conversation’s start to end') };
}

export async function containerState(sandboxId: string): Promise<string | null> {
  try {
    return (await docker.getContainer(`dockhand-${sandboxId}`).inspect()).State.Status;
  } catch {
    return null;
  }
}

export async function volumeExists(sandboxId: string): Promise<boolean> {
  return docker
    .getVolume(`dockhand-ws-${sandboxId}`)
    .inspect()
    .then(
      () => true,
      () => false,
    );
}

/** Runs a one-off command in a sandbox's container as its user. */
export async function execIn(sandboxId: string, script: string) {
  return dockerExec(docker.getContainer(`dockhand-${sandboxId}`), ['sh', '-c', script], { user: 'dockhand' });
}

/** Creates a sandbox through the API and waits until its start has finished. */
export async function createSandbox(service: TestService, specId?: string): Promise<SandboxInfo> {
  const created = await service.api(
    'POST',
    '/api/v1/sandboxes',
    specId ? { body: { sandbox_spec_id: specId } } : {},
  );
  if (created.status !== 200) throw new Error(`create failed: ${created.status} ${created.text}`);
  const { id } = created.json as SandboxInfo;
  return service.service.context.sandboxes.settled(id);
}

export async function statusOf(service: TestService, id: string): Promise<SandboxStatus> {
  const response = await service.api('GET', `/api/v1/sandboxes/${id}`);
  return (response.json as SandboxInfo).status;
}
