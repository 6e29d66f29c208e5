import { afterEach, describe, expect, it } from 'vitest';
import type { TestService } from '../support/service';
import {
  containerState,
  createSandbox,
  dockerSkipReason,
  instanceId,
  removeLabelled,
  startSandboxLayer,
  startSandboxService,
  statusOf,
  type TestSandboxLayer,
} from './support';

const skipReason = await dockerSkipReason();
if (skipReason) console.warn(`Skipping the live-sandbox cap tests: ${skipReason}`);

describe.skipIf(skipReason !== null)('max_live_sandboxes', () => {
  let service: TestService | undefined;

  let layer: TestSandboxLayer | undefined;

  afterEach(async () => {
    await layer?.close();
    layer = undefined;
    if (!service) return;
    const label = `dev.dockhand.instance=${instanceId(service)}`;
    await service.close();
    await removeLabelled(label);
    service = undefined;
  });

  async function serviceWithCap(max: number): Promise<TestService> {
    service = await startSandboxService();
    const saved = await service.api('POST', '/api/settings', { body: { max_live_sandboxes: max } });
    expect(saved.status).toBe(200);
    return service;
  }

  it('pauses the least recently used RUNNING sandbox to make room', async () => {
    const api = await serviceWithCap(2);
    const first = await createSandbox(api);
    const second = await createSandbox(api);
    // The first one is used after the second, so the second is now the least recently used.
    await api.service.context.sandboxes.workspace(first.id);

    const third = await createSandbox(api);
    expect(third.status).toBe('RUNNING');
    expect(await statusOf(api, second.id)).toBe('PAUSED');
    expect(await containerState(second.id)).toBe('paused');
    expect(await statusOf(api, first.id)).toBe('RUNNING');
    const info = (await api.api('GET', '/server_info')).json as { live_sandboxes: number };
    expect(info.live_sandboxes).toBe(2);

    // Resuming the paused one makes room the same way: the first is now the least recently used.
    expect((await api.api('POST', `/api/v1/sandboxes/${second.id}/resume`)).status).toBe(200);
    expect(await statusOf(api, second.id)).toBe('RUNNING');
    expect(await statusOf(api, first.id)).toBe('PAUSED');
    expect(await containerState(first.id)).toBe('paused');
  });

  it('answers 409 when no live sandbox is idle', async () => {
    // The test stands in for the conversations: every sandbox is busy.
    const started = await startSandboxLayer({
      maxLive: 1,
      users: { isIdle: () => false, release: async () => {}, resumed: () => {} },
    });
    layer = started;
    const { sandboxes, specs } = started.layer;
    const busy = await sandboxes.settled((await sandboxes.create(specs.default())).id);
    expect(busy.status).toBe('RUNNING');

    const tooMany = { status: 409, message: 'Too many live sandboxes (1). Pause or delete one and retry.' };
    await expect(sandboxes.create(specs.default())).rejects.toMatchObject(tooMany);
    expect(sandboxes.get(busy.id).status).toBe('RUNNING');
    expect(sandboxes.search({ limit: 10 }).items).toHaveLength(1);

    // Paused by hand, the sandbox frees its place; resuming it while another runs is refused.
    await sandboxes.pause(busy.id);
    const other = await sandboxes.settled((await sandboxes.create(specs.default())).id);
    expect(other.status).toBe('RUNNING');
    await expect(sandboxes.resume(busy.id)).rejects.toMatchObject(tooMany);
    expect(sandboxes.get(busy.id).status).toBe('PAUSED');
  });
});
