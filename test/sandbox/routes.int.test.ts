import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxInfo } from '../../src/shared/api/sandboxes';
import type { TestService } from '../support/service';
import { startSandboxService, TEST_IMAGE } from './support';

interface Page {
  items: SandboxInfo[];
  next_page_id: string | null;
}

/** Route conformance (api-contract §1, §11, §12), on process sandboxes so that no Docker engine is needed. */
describe('sandbox routes', () => {
  let service: TestService;
  const ids: string[] = [];

  beforeAll(async () => {
    service = await startSandboxService({}, { provider: 'process' });
    for (let i = 0; i < 3; i++) {
      const created = await service.api('POST', '/api/v1/sandboxes');
      expect(created.status).toBe(200);
      ids.push((created.json as SandboxInfo).id);
    }
    for (const id of ids) await service.service.context.sandboxes.settled(id);
  });

  afterAll(async () => {
    await service?.close();
  });

  it('pages newest first with opaque cursors', async () => {
    const first = (await service.api('GET', '/api/v1/sandboxes/search?limit=2')).json as Page;
    expect(first.items.map((item) => item.id)).toEqual([ids[2], ids[1]]);
    expect(first.next_page_id).toMatch(/^[A-Za-z0-9_-]+$/);
    const second = (
      await service.api('GET', `/api/v1/sandboxes/search?limit=2&page_id=${first.next_page_id}`)
    ).json as Page;
    expect(second).toEqual({ items: [expect.objectContaining({ id: ids[0] })], next_page_id: null });
    const all = (await service.api('GET', '/api/v1/sandboxes/search')).json as Page;
    expect(all.items).toHaveLength(3);
    expect(all.items.every((item) => item.status === 'RUNNING')).toBe(true);
  });

  it('filters by status', async () => {
    expect((await service.api('POST', `/api/v1/sandboxes/${ids[0]}/pause`)).status).toBe(200);
    try {
      const paused = (await service.api('GET', '/api/v1/sandboxes/search?status__eq=PAUSED')).json as Page;
      expect(paused.items.map((item) => item.id)).toEqual([ids[0]]);
      const running = (await service.api('GET', '/api/v1/sandboxes/search?status__eq=RUNNING')).json as Page;
      expect(running.items).toHaveLength(2);
    } finally {
      await service.api('POST', `/api/v1/sandboxes/${ids[0]}/resume`);
    }
  });

  it.each([
    ['limit=0', 'greater_than_equal', ['query', 'limit']],
    ['limit=101', 'less_than_equal', ['query', 'limit']],
    ['limit=ten', 'int_parsing', ['query', 'limit']],
    ['page_id=not-a-cursor', 'value_error', ['query', 'page_id']],
    ['page_id=%25%25', 'value_error', ['query', 'page_id']],
    ['status__eq=SLEEPING', 'enum', ['query', 'status__eq']],
  ])('answers 422 for search?%s', async (query, type, loc) => {
    const response = await service.api('GET', `/api/v1/sandboxes/search?${query}`);
    expect(response.status).toBe(422);
    expect(response.json).toEqual({ detail: [expect.objectContaining({ type, loc })] });
  });

  it('gets a batch aligned with the ids, null for unknown and malformed ones', async () => {
    const response = await service.api('GET', `/api/v1/sandboxes?id=${ids[1]}&id=sbx-unknown&id=bad%20id!`);
    expect(response.status).toBe(200);
    expect(response.json).toEqual([expect.objectContaining({ id: ids[1], status: 'RUNNING' }), null, null]);
    const single = await service.api('GET', `/api/v1/sandboxes?id=${ids[1]}`);
    expect(single.json).toEqual([expect.objectContaining({ id: ids[1] })]);
  });

  it('answers 422 for a batch of no ids or more than 100', async () => {
    const none = await service.api('GET', '/api/v1/sandboxes');
    expect(none).toMatchObject({
      status: 422,
      json: { detail: [{ type: 'missing', loc: ['query', 'id'] }] },
    });
    const many = Array.from({ length: 101 }, (_, i) => `id=sbx-${i}`).join('&');
    const tooMany = await service.api('GET', `/api/v1/sandboxes?${many}`);
    expect(tooMany).toMatchObject({
      status: 422,
      json: { detail: [{ type: 'too_long', loc: ['query', 'id'] }] },
    });
  });

  it.each(['sbx-unknown', 'sbx-0000000000000000000000', 'bad%20id!', '..%2F..'])(
    'answers the unknown-id 404 for %s on every route',
    async (id) => {
      const detail = `Sandbox ${decodeURIComponent(id)} not found`;
      for (const [method, path] of [
        ['GET', `/api/v1/sandboxes/${id}`],
        ['POST', `/api/v1/sandboxes/${id}/pause`],
        ['POST', `/api/v1/sandboxes/${id}/resume`],
        ['DELETE', `/api/v1/sandboxes/${id}`],
      ] as const) {
        const response = await service.api(method, path);
        expect({ method, status: response.status, json: response.json }).toEqual({
          method,
          status: 404,
          json: { detail },
        });
      }
    },
  );

  it('validates the spec id of a create, in the query or the body', async () => {
    const unknownQuery = await service.api('POST', '/api/v1/sandboxes?sandbox_spec_id=nope:1');
    expect(unknownQuery).toMatchObject({
      status: 422,
      json: {
        detail: [
          {
            type: 'value_error',
            loc: ['query', 'sandbox_spec_id'],
            msg: 'Value error, Unknown sandbox spec nope:1',
            input: 'nope:1',
          },
        ],
      },
    });
    const unknownBody = await service.api('POST', '/api/v1/sandboxes', {
      body: { sandbox_spec_id: 'nope:2' },
    });
    expect(unknownBody).toMatchObject({
      status: 422,
      json: { detail: [{ type: 'value_error', loc: ['body', 'sandbox_spec_id'] }] },
    });
    const differing = await service.api('POST', `/api/v1/sandboxes?sandbox_spec_id=${TEST_IMAGE}`, {
      body: { sandbox_spec_id: 'other:1' },
    });
    expect(differing).toMatchObject({
      status: 422,
      json: { detail: [{ type: 'value_error', loc: ['body', 'sandbox_spec_id'] }] },
    });
    const extra = await service.api('POST', '/api/v1/sandboxes', { body: { colour: 'red' } });
    expect(extra).toMatchObject({
      status: 422,
      json: { detail: [{ type: 'extra_forbidden', loc: ['body', 'colour'], input: 'red' }] },
    });
    const broken = await service.api('POST', '/api/v1/sandboxes', {
      rawBody: '{',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(broken).toMatchObject({ status: 422, json: { detail: [{ type: 'json_invalid' }] } });
    // The count of sandboxes did not change.
    expect(((await service.api('GET', '/api/v1/sandboxes/search')).json as Page).items).toHaveLength(3);

    const same = await service.api('POST', `/api/v1/sandboxes?sandbox_spec_id=${TEST_IMAGE}`, {
      body: { sandbox_spec_id: TEST_IMAGE },
    });
    expect(same).toMatchObject({ status: 200, json: { sandbox_spec_id: TEST_IMAGE } });
    const id = (same.json as SandboxInfo).id;
    expect((await service.api('DELETE', `/api/v1/sandboxes/${id}`)).json).toEqual({ success: true });
  });

  it('lists sandbox specs, the default first, with paging and a batch get', async () => {
    await service.api('POST', '/api/settings', { body: { sandbox_base_container_image: 'example/base:1' } });
    try {
      const all = (await service.api('GET', '/api/v1/sandbox-specs/search')).json as {
        items: { id: string }[];
        next_page_id: string | null;
      };
      expect(all.items.map((spec) => spec.id)).toEqual(['example/base:1', TEST_IMAGE]);
      expect(all.items[1]).toMatchObject({
        command: ['sleep', 'infinity'],
        initial_env: { LANG: 'C.UTF-8' },
        working_dir: '/workspace/project',
        image_progress: null,
      });
      const first = (await service.api('GET', '/api/v1/sandbox-specs/search?limit=1')).json as typeof all;
      expect(first.items.map((spec) => spec.id)).toEqual(['example/base:1']);
      const second = (
        await service.api('GET', `/api/v1/sandbox-specs/search?limit=1&page_id=${first.next_page_id}`)
      ).json as typeof all;
      expect(second).toEqual({ items: [expect.objectContaining({ id: TEST_IMAGE })], next_page_id: null });

      const batch = await service.api('GET', `/api/v1/sandbox-specs?id=${TEST_IMAGE}&id=nope`);
      expect(batch.json).toEqual([expect.objectContaining({ id: TEST_IMAGE }), null]);
      for (const query of ['limit=0', 'limit=101', 'page_id=zz']) {
        expect((await service.api('GET', `/api/v1/sandbox-specs/search?${query}`)).status).toBe(422);
      }
      expect((await service.api('GET', '/api/v1/sandbox-specs')).status).toBe(422);
    } finally {
      await service.api('POST', '/api/settings', { body: { sandbox_base_container_image: null } });
    }
  });

  it('needs the session key', async () => {
    const response = await service.api('GET', '/api/v1/sandboxes/search', { key: 'wrong-key-wrong-key' });
    expect(response).toMatchObject({ status: 401, json: { detail: 'Unauthorized' } });
  });
});
