import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service';
import { deeplyNested, type OpenApiDocument, operationsOf } from './fuzz-requests';

// Requests the fuzzer found answered with a 500, an HTML page, an empty body or an undocumented status.
describe('answers found by fuzzing', () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(async () => {
    await svc.close();
  });

  it('refuses a body nested too deep with a 422 json_invalid instead of overflowing the stack', async () => {
    const json = `{"title":${deeplyNested(100_000)}}`;
    const response = await svc.api('PATCH', '/api/conversations/nope', {
      rawBody: json,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.status).toBe(422);
    expect(response.json).toEqual({
      detail: [
        {
          type: 'json_invalid',
          // The outer object is level 1: the 128th array opens level 129.
          loc: ['body', '{"title":'.length + 127],
          msg: 'JSON decode error',
          input: {},
          ctx: { error: 'Nesting deeper than 128 levels' },
        },
      ],
    });
    expect((await svc.api('GET', '/alive', { key: null })).status).toBe(200);
  });

  it('still takes bodies nested up to the limit', async () => {
    const nested = `${'{"a":'.repeat(127)}1${'}'.repeat(127)}`;
    const response = await svc.api('POST', '/api/secrets', {
      rawBody: `{"name":"DEEP","value":"v","description":${nested}}`,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.status).toBe(422);
    expect(response.json).toMatchObject({ detail: [{ type: 'string_type', loc: ['body', 'description'] }] });
  });

  it('documents 413, 415 and 422 on every route that reads a JSON body', async () => {
    const doc = (await svc.api('GET', '/api/openapi.json', { key: null })).json as OpenApiDocument;
    const bodyRoutes = operationsOf(doc).filter((o) => o.method !== 'GET' && o.bodyType !== 'multipart');
    expect(bodyRoutes.length).toBeGreaterThan(20);
    for (const route of bodyRoutes) {
      expect(
        [413, 415, 422].filter((s) => !route.responses.has(s)),
        `${route.method} ${route.path}`,
      ).toEqual([]);
    }
    const invalid = await svc.api('POST', '/api/conversations/nope/stop', {
      rawBody: '{',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(invalid.json).toMatchObject({ detail: [{ type: 'json_invalid' }] });
  });

  it('documents the 404 and 409 a stream-start answers before it streams', async () => {
    const response = await svc.api('POST', '/api/v1/app-conversations/stream-start', {
      body: { sandbox_id: 'sbx-unknown' },
    });
    expect(response).toMatchObject({ status: 404, json: { detail: 'Sandbox sbx-unknown not found' } });
    const doc = (await svc.api('GET', '/api/openapi.json', { key: null })).json as OpenApiDocument;
    const streamStart = operationsOf(doc).find((o) => o.path === '/api/v1/app-conversations/stream-start');
    expect([...(streamStart?.responses.keys() ?? [])].sort()).toEqual([200, 404, 409, 413, 415, 422]);
  });

  it('answers a request head over 16 KiB with a JSON 431', async () => {
    const response = await svc.api('GET', `/api/settings?q=${'x'.repeat(20_000)}`);
    expect(response.status).toBe(431);
    expect(response.json).toEqual({ detail: 'Request header fields too large' });
  });
});
