import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { newSandboxId } from '../../src/service/sandbox/sandbox-id';
import type { SandboxInfo } from '../../src/shared/api/sandboxes';
import { type TestService, tempDataDir } from '../support/service';
import {
  containerState,
  createSandbox,
  docker,
  dockerSkipReason,
  execIn,
  instanceId,
  removeLabelled,
  startSandboxService,
  statusOf,
  TEST_IMAGE,
  volumeExists,
} from './support';

const skipReason = await dockerSkipReason();
if (skipReason) console.warn(`Skipping the sandbox reconciliation tests: ${skipReason}`);

const FOREIGN_LABEL = `dev.dockhand.test=reconcile-${randomUUID()}`;
const [foreignKey = '', foreignValue = ''] = FOREIGN_LABEL.split('=');

/** A running container that is not one of this install's sandboxes. */
async function foreignContainer(name: string, labels: Record<string, string>): Promise<string> {
  const container = await docker.createContainer({
    name,
    Image: TEST_IMAGE,
    Cmd: ['sleep', 'infinity'],
    Labels: { 'dev.dockhand.managed': 'true', [foreignKey]: foreignValue, ...labels },
    HostConfig: { NetworkMode: 'none', Init: true },
  });
  await container.start();
  return container.id;
}

async function listedIds(service: TestService): Promise<string[]> {
  const page = (await service.api('GET', '/api/v1/sandboxes/search')).json as { items: SandboxInfo[] };
  return page.items.map((item) => item.id);
}

describe.skipIf(skipReason !== null)('reconciliation at start', () => {
  const dataDir = tempDataDir();
  let service: TestService | undefined;
  let label = '';

  afterAll(async () => {
    await service?.close({ keepData: true });
    if (label) await removeLabelled(label);
    await removeLabelled(FOREIGN_LABEL);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('re-attaches survivors, marks vanished ones MISSING and never touches other containers', async () => {
    service = await startSandboxService({ dataDir }, { onClose: 'leave' });
    label = `dev.dockhand.instance=${instanceId(service)}`;
    const survivor = await createSandbox(service);
    const vanished = await createSandbox(service);
    const paused = await createSandbox(service);
    expect((await service.api('POST', `/api/v1/sandboxes/${paused.id}/pause`)).status).toBe(200);
    const written = await execIn(survivor.id, 'echo kept-across-restarts > /workspace/project/note.txt');
    expect(written.exitCode).toBe(0);

    // Not Dockhand's sandboxes: one without sandbox labels, one of another install named like a sandbox.
    const unlabelled = await foreignContainer(`dockhand-test-${randomUUID().slice(0, 8)}`, {});
    const otherId = newSandboxId();
    const otherInstall = await foreignContainer(`dockhand-${otherId}`, {
      'dev.dockhand.instance': 'another-install',
      'dev.dockhand.sandbox_id': otherId,
    });

    await service.close({ keepData: true });
    service = undefined;
    expect(await containerState(survivor.id)).toBe('running');
    await docker.getContainer(`dockhand-${vanished.id}`).remove({ force: true });

    service = await startSandboxService({ dataDir });
    expect(await statusOf(service, survivor.id)).toBe('RUNNING');
    expect(await statusOf(service, paused.id)).toBe('PAUSED');
    const missing = (await service.api('GET', `/api/v1/sandboxes/${vanished.id}`)).json as SandboxInfo;
    expect(missing).toMatchObject({ status: 'MISSING', error: 'The container was removed outside Dockhand' });
    expect((await listedIds(service)).sort()).toEqual([survivor.id, paused.id].sort());

    // The survivor is usable and its workspace intact.
    const read = await execIn(survivor.id, 'cat /workspace/project/note.txt');
    expect(read.stdout).toBe('kept-across-restarts\n');
    expect((await service.service.context.sandboxes.workspace(survivor.id)).isolated).toBe(true);

    // The other install's container is unknown here and stays as it was.
    expect((await service.api('DELETE', `/api/v1/sandboxes/${otherId}`)).status).toBe(404);
    expect((await service.api('POST', `/api/v1/sandboxes/${otherId}/pause`)).status).toBe(404);

    // Closing pauses this install's live sandboxes only.
    await service.close({ keepData: true });
    service = undefined;
    expect(await containerState(survivor.id)).toBe('paused');
    expect((await docker.getContainer(unlabelled).inspect()).State.Status).toBe('running');
    expect((await docker.getContainer(otherInstall).inspect()).State.Status).toBe('running');

    service = await startSandboxService({ dataDir });
    expect(await statusOf(service, survivor.id)).toBe('PAUSED');
    expect((await service.api('POST', `/api/v1/sandboxes/${survivor.id}/resume`)).status).toBe(200);
    expect((await execIn(survivor.id, 'cat /workspace/project/note.txt')).stdout).toBe(
      'kept-across-restarts\n',
    );

    // Deleting the MISSING one removes the volume it left behind.
    expect(await volumeExists(vanished.id)).toBe(true);
    expect((await service.api('DELETE', `/api/v1/sandboxes/${vanished.id}`)).status).toBe(200);
    expect(await volumeExists(vanished.id)).toBe(false);
    expect((await docker.getContainer(unlabelled).inspect()).State.Status).toBe('running');
    expect((await docker.getContainer(otherInstall).inspect()).State.Status).toBe('running');
  });
});
