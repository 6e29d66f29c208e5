import { afterEach, describe, expect, it } from 'vitest';
import type { TestService } from '../support/service';
import {
  containerState,
  createSandbox,
  dockerSkipReason,
  instanceId,
  removeLabelled,
  startSandboxService,
  statusOf,
} from './support';

const skipReason = await dockerSkipReason();
if (skipReason) console.warn(`Skipping the live-sandbox cap tests: ${skipReason}`);

describe.skipIf(skipReason !== null)('max_live_sandboxes', () => {
  let service: TestService | undefined;

  afterEach(async () => {
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
    const api = await serviceWithCap(1);
    const busy = await createSandbox(api);
    api.service.context.sandboxes.setUsers({
      isIdle: () => false,
      release: async () => {},
      resumed: () => {},
    });

    const refused = await api.api('POST', '/api/v1/sandboxes');
    expect(refused).toMatchObject({
      status: 409,
      json: { detail: 'Too many live sandboxes (1). Pause or delete one and retry.' },
    });
    expect(await statusOf(api, busy.id)).toBe('RUNNING');
    const listed = (await api.api('GET', '/api/v1/sandboxes/search')).json as { items: unknown[] };
    expect(listed.items).toHaveLength(1);

    // Paused by hand, the sandbox frees its place; resuming it while another runs is refused.
    expect((await api.api('POST', `/api/v1/sandboxes/${busy.id}/pause`)).status).toBe(200);
    const other = await createSandbox(api);
    expect(other.status).toBe('RUNNING');
    const resume = await api.api('POST', `/api/v1/sandboxes/${busy.id}/resume`);
    expect(resume).toMatchObject({
      status: 409,
      json: { detail: 'Too many live sandboxes (1). Pause or delete one and retry.' },
    });
    expect(await statusOf(api, busy.id)).toBe('PAUSED');
  });
});
