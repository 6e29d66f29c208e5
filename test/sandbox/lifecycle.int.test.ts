import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxInfo } from '../../src/shared/api/sandboxes';
import type { TestService } from '../support/service';
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
if (skipReason) console.warn(`Skipping the Docker sandbox lifecycle tests: ${skipReason}`);

describe.skipIf(skipReason !== null)('Docker sandbox lifecycle', () => {
  let service: TestService;
  let label: string;

  beforeAll(async () => {
    service = await startSandboxService();
    label = `dev.dockhand.instance=${instanceId(service)}`;
  });

  afterAll(async () => {
    await service?.close();
    if (label) await removeLabelled(label);
  });

  it('creates a labelled, limited container that becomes RUNNING', async () => {
    const created = await service.api('POST', '/api/v1/sandboxes', { body: { sandbox_spec_id: TEST_IMAGE } });
    expect(created.status).toBe(200);
    const starting = created.json as SandboxInfo;
    expect(starting).toMatchObject({
      created_by_user_id: null,
      sandbox_spec_id: TEST_IMAGE,
      status: 'STARTING',
      session_api_key: null,
      exposed_urls: null,
      provider: 'docker',
      isolated: true,
    });
    expect(starting.id).toMatch(/^sbx-[0-9A-Za-z]{22}$/);
    expect(starting.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const running = await service.service.context.sandboxes.settled(starting.id);
    expect(running.status).toBe('RUNNING');
    expect(running.session_api_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // No network: no app port is published; the agent-server endpoint is Dockhand's own, on loopback.
    expect(running.exposed_urls?.map((url) => url.name)).toEqual(['AGENT_SERVER']);

    const info = await docker.getContainer(`dockhand-${starting.id}`).inspect();
    expect(info.State.Running).toBe(true);
    expect(info.Config.Labels).toMatchObject({
      'dev.dockhand.managed': 'true',
      'dev.dockhand.sandbox_id': starting.id,
      'dev.dockhand.spec': TEST_IMAGE,
      'dev.dockhand.instance': instanceId(service),
    });
    expect(info.Config.User).toBe('dockhand');
    expect(info.HostConfig.Init).toBe(true);
    expect(info.HostConfig.NetworkMode).toBe('none');
    expect(info.HostConfig.CapDrop).toEqual(['ALL']);
    expect(info.HostConfig.Memory).toBe(4 * 1024 ** 3);
    expect(info.HostConfig.PidsLimit).toBe(1024);
    expect(info.Mounts).toEqual([
      expect.objectContaining({
        Type: 'volume',
        Name: `dockhand-ws-${starting.id}`,
        Destination: '/workspace',
        RW: true,
      }),
      // The folders lent to every sandbox (installed coding agents), which it cannot write.
      expect.objectContaining({
        Type: 'volume',
        Name: 'dockhand-lent',
        Destination: '/opt/dockhand-lent',
        RW: false,
      }),
    ]);

    // The sandbox user owns its workspace and can use sudo.
    const check = await execIn(
      starting.id,
      'id -un && touch /workspace/project/x && sudo -n true && echo sudo-ok',
    );
    expect(check).toMatchObject({ exitCode: 0 });
    expect(check.stdout).toBe('dockhand\nsudo-ok\n');

    const listed = await service.api('GET', '/server_info');
    expect((listed.json as { live_sandboxes: number }).live_sandboxes).toBe(1);
  });

  it('pauses, resumes and deletes, idempotently', async () => {
    const sandbox = await createSandbox(service);
    expect(sandbox.status).toBe('RUNNING');

    for (let i = 0; i < 2; i++) {
      const paused = await service.api('POST', `/api/v1/sandboxes/${sandbox.id}/pause`);
      expect(paused).toMatchObject({ status: 200, json: { success: true } });
    }
    expect(await containerState(sandbox.id)).toBe('paused');
    const pausedInfo = (await service.api('GET', `/api/v1/sandboxes/${sandbox.id}`)).json as SandboxInfo;
    expect(pausedInfo).toMatchObject({ status: 'PAUSED', session_api_key: null, exposed_urls: null });

    for (let i = 0; i < 2; i++) {
      const resumed = await service.api('POST', `/api/v1/sandboxes/${sandbox.id}/resume`);
      expect(resumed).toMatchObject({ status: 200, json: { success: true } });
    }
    expect(await containerState(sandbox.id)).toBe('running');
    expect(await statusOf(service, sandbox.id)).toBe('RUNNING');

    // An exited container (stopped outside Dockhand) is started again by resume.
    await docker.getContainer(`dockhand-${sandbox.id}`).stop({ t: 1 });
    await expect.poll(() => statusOf(service, sandbox.id), { timeout: 30_000 }).toBe('PAUSED');
    expect((await service.api('POST', `/api/v1/sandboxes/${sandbox.id}/resume`)).status).toBe(200);
    expect(await containerState(sandbox.id)).toBe('running');

    const deleted = await service.api('DELETE', `/api/v1/sandboxes/${sandbox.id}`);
    expect(deleted).toMatchObject({ status: 200, json: { success: true } });
    expect(await containerState(sandbox.id)).toBeNull();
    expect(await volumeExists(sandbox.id)).toBe(false);
    expect((await service.api('GET', `/api/v1/sandboxes?id=${sandbox.id}`)).json).toEqual([null]);
    expect((await service.api('DELETE', `/api/v1/sandboxes/${sandbox.id}`)).status).toBe(404);
  });

  it('follows changes made outside Dockhand through Docker events', async () => {
    const sandbox = await createSandbox(service);
    await docker.getContainer(`dockhand-${sandbox.id}`).pause();
    await expect.poll(() => statusOf(service, sandbox.id), { timeout: 30_000 }).toBe('PAUSED');
    await docker.getContainer(`dockhand-${sandbox.id}`).unpause();
    await expect.poll(() => statusOf(service, sandbox.id), { timeout: 30_000 }).toBe('RUNNING');

    await docker.getContainer(`dockhand-${sandbox.id}`).remove({ force: true });
    await expect.poll(() => statusOf(service, sandbox.id), { timeout: 30_000 }).toBe('MISSING');
    const missing = (await service.api('GET', `/api/v1/sandboxes/${sandbox.id}`)).json as SandboxInfo;
    expect(missing.error).toBe('The container was removed outside Dockhand');
    // MISSING allows only delete.
    const resume = await service.api('POST', `/api/v1/sandboxes/${sandbox.id}/resume`);
    expect(resume.status).toBe(409);
    expect((resume.json as { detail: string }).detail).toMatch(/is MISSING.*Only delete is allowed/);
    // Unlisted, except when asked for by status.
    const listed = (await service.api('GET', '/api/v1/sandboxes/search')).json as { items: SandboxInfo[] };
    expect(listed.items.map((item) => item.id)).not.toContain(sandbox.id);
    const missingOnes = (await service.api('GET', '/api/v1/sandboxes/search?status__eq=MISSING')).json as {
      items: SandboxInfo[];
    };
    expect(missingOnes.items.map((item) => item.id)).toContain(sandbox.id);
    expect((await service.api('DELETE', `/api/v1/sandboxes/${sandbox.id}`)).status).toBe(200);
    expect(await volumeExists(sandbox.id)).toBe(false);
  });

  it('runs a sandbox whose image cannot be pulled in Dockhand’s own image', async () => {
    // A registry address on loopback where nothing listens: the pull fails at once, without leaving the host.
    const image = '127.0.0.1:9/dockhand/absent:1';
    await service.api('POST', '/api/settings', { body: { sandbox_runtime_container_image: image } });
    try {
      const specs = (await service.api('GET', '/api/v1/sandbox-specs/search')).json as {
        items: { id: string; image_present: boolean }[];
      };
      expect(specs.items[0]).toMatchObject({ id: image, image_present: false });

      const sandbox = await createSandbox(service);
      expect(sandbox).toMatchObject({ status: 'RUNNING', sandbox_spec_id: image, error: null });
      const container = await docker.getContainer(`dockhand-${sandbox.id}`).inspect();
      expect(container.Config.Image).toBe('dockhand/sandbox:1.0.0');
      const progress = (await service.api('GET', `/api/v1/sandbox-specs?id=${encodeURIComponent(image)}`))
        .json as { image_progress: unknown }[];
      expect(progress[0]?.image_progress).toBeNull();
      expect((await service.api('DELETE', `/api/v1/sandboxes/${sandbox.id}`)).status).toBe(200);
    } finally {
      await service.api('POST', '/api/settings', { body: { sandbox_runtime_container_image: null } });
    }
  });
});
