import Docker from 'dockerode';
import { runInContainer } from '../../src/service/sandbox/files/container-command';
import type { SandboxConfig } from '../../src/service/sandbox/sandbox-config';
import type { ServiceConfig } from '../../src/service/config';
import type { V0Event } from '../../src/shared/api/events';
import type { SandboxInfo, SandboxStatus } from '../../src/shared/api/sandboxes';
import type { ScriptedLlm } from '../support/scripted-llm';
import { startTestService, type TestService } from '../support/service';
import { until } from '../support/until';

/** The offline sandbox image the tests run (scripts/sandbox-image.sh builds it). */
export const TEST_IMAGE = process.env.DOCKHAND_SANDBOX_IMAGE || 'dockhand/sandbox:1.0.0';

export const docker = new Docker();

/**
 * Removes a test's image, waiting 10 s at most: the engine removes it, but dockerode's promise for the
 * removal does not always settle (seen while other tests build images on the same engine).
 */
export async function removeTestImage(tag: string): Promise<void> {
  await Promise.race([
    docker
      .getImage(tag)
      .remove({ force: true })
      .catch(() => undefined),
    new Promise((resolve) => setTimeout(resolve, 10_000).unref()),
  ]);
}

/** Why the Docker tests cannot run here, or null when the engine answers and the image exists. */
export async function dockerSkipReason(): Promise<string | null> {
  try {
    await docker.ping();
  } catch (error) {
    return `no Docker engine answers (${error instanceof Error ? error.message : String(error)})`;
  }
  try {
    await docker.getImage(TEST_IMAGE).inspect();
  } catch {
    return `the image ${TEST_IMAGE} is missing (run \`npm run sandbox:image\`)`;
  }
  return null;
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

/** The install id that labels a service's containers and volumes. */
export function instanceId(service: TestService): string {
  const row = service.service.context.db
    .prepare("SELECT value FROM service_meta WHERE key = 'instance_id'")
    .get() as { value: string };
  return row.value;
}

/** Removes every container (with its anonymous volumes) and named volume carrying `label` (`key=value`). */
export async function removeLabelled(label: string): Promise<void> {
  const containers = await docker.listContainers({ all: true, filters: { label: [label] } });
  await Promise.all(
    containers.map((info) =>
      docker
        .getContainer(info.Id)
        .remove({ force: true, v: true })
        .catch(() => undefined),
    ),
  );
  const { Volumes: volumes } = await docker.listVolumes({ filters: { label: [label] } });
  await Promise.all(
    (volumes ?? []).map((volume) =>
      docker
        .getVolume(volume.Name)
        .remove()
        .catch(() => undefined),
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
  return runInContainer(docker.getContainer(`dockhand-${sandboxId}`), ['sh', '-c', script], 'dockhand');
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
