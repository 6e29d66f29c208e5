import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { faults, startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import { freePort } from '../support/ports';
import { startTestService, type TestService } from '../support/service';

const KEY = 'sk-llm-check-7d41e0b2';
const STORED_KEY = 'sk-stored-key-29ac5f';

describe('POST /api/settings/llm-check', () => {
  let llm: ScriptedLlm;
  let svc: TestService;
  const check = (body: unknown) => svc.api('POST', '/api/settings/llm-check', { body });

  beforeAll(async () => {
    llm = await startScriptedLlm();
  });
  afterAll(async () => {
    await llm.close();
  });
  beforeEach(async () => {
    svc = await startTestService();
  });
  afterEach(async () => {
    await svc.close();
  });

  it('sends one tiny request with the typed key and reports the answer', async () => {
    llm.push({ text: 'OK' });
    const response = await check({ llm_model: 'openai/gpt-4o', llm_base_url: llm.baseUrl, llm_api_key: KEY });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ ok: true, problem: null, fix: null, key_source: 'request' });
    expect((response.json as { message: string }).message).toMatch(/^openai\/gpt-4o answered in \d+ ms\.$/);
    const call = llm.calls.at(-1);
    expect(call?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(call?.rawBody).toContain('Reply with OK.');
    // The check saves nothing.
    expect((await svc.api('GET', '/api/settings')).status).toBe(404);
  });

  it('uses the stored key when none is sent, for the saved provider and base URL however spelled', async () => {
    await svc.api('POST', '/api/settings', {
      body: { llm_model: 'openai/gpt-4o', llm_base_url: llm.baseUrl, llm_api_key: STORED_KEY },
    });
    const spellings = [llm.baseUrl, `${llm.baseUrl}/`, `${llm.baseUrl}//`];
    for (const baseUrl of spellings) {
      llm.push({ text: 'OK' });
      // Another model of the same provider at the same address is the same endpoint.
      const response = await check({ llm_model: 'openai/gpt-4o-mini', llm_base_url: baseUrl });
      expect(response.json, baseUrl).toMatchObject({ ok: true, key_source: 'stored' });
      expect(llm.calls.at(-1)?.headers.authorization).toBe(`Bearer ${STORED_KEY}`);
    }
  });

  it('never sends the stored key to another base URL or provider: the key must come with the request', async () => {
    const other = await startScriptedLlm();
    try {
      await svc.api('POST', '/api/settings', {
        body: { llm_model: 'openai/gpt-4o', llm_base_url: llm.baseUrl, llm_api_key: STORED_KEY },
      });
      // A server on this machine needs no key: the check runs, without the stored one.
      other.push({ text: 'OK' });
      const moved = await check({ llm_model: 'openai/gpt-4o', llm_base_url: other.baseUrl });
      expect(moved.json).toMatchObject({ ok: true, key_source: 'none' });
      expect(other.calls).toHaveLength(1);
      expect(other.calls[0]?.auth ?? '').not.toContain(STORED_KEY);

      // Another provider at the saved address is another endpoint too.
      const before = llm.calls.length;
      llm.push({ text: 'OK' });
      const provider = await check({ llm_model: 'anthropic/claude-x', llm_base_url: llm.baseUrl });
      expect(provider.json).toMatchObject({ key_source: 'none' });
      expect(llm.calls.slice(before).map((call) => call.auth ?? '')).not.toContainEqual(
        expect.stringContaining(STORED_KEY),
      );

      // A remote address needs a key: the check says so, and calls nothing.
      const remote = await check({
        llm_model: 'openai/gpt-4o',
        llm_base_url: 'https://llm.example.invalid/v1',
      });
      expect(remote.json).toMatchObject({ ok: false, problem: 'missing_key', key_source: 'none' });
      expect((remote.json as { message: string }).message).toContain(
        'saved API key is sent only to the saved',
      );

      // With the key in the request, the new address gets that key.
      other.push({ text: 'OK' });
      const typed = await check({
        llm_model: 'openai/gpt-4o',
        llm_base_url: other.baseUrl,
        llm_api_key: KEY,
      });
      expect(typed.json).toMatchObject({ ok: true, key_source: 'request' });
      expect(other.calls.at(-1)?.auth).toBe(`Bearer ${KEY}`);
      expect(JSON.stringify(other.requests.map((r) => r.headers))).not.toContain(STORED_KEY);
    } finally {
      await other.close();
    }
  });

  it('names a rejected key as an authentication failure, without echoing the key', async () => {
    llm.push(faults.unauthorized());
    const response = await check({ llm_model: 'openai/gpt-4o', llm_base_url: llm.baseUrl, llm_api_key: KEY });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ ok: false, problem: 'auth', key_source: 'request' });
    expect((response.json as { message: string }).message).toContain('rejected the credentials');
    expect((response.json as { fix: string }).fix).toContain('API key');
    expect(response.text).not.toContain(KEY);
  });

  it('names a server that does not answer as unreachable, at once and without retries', async () => {
    const closedPort = await freePort();
    const before = llm.calls.length;
    const response = await check({
      llm_model: 'openai/gpt-4o',
      llm_base_url: `http://127.0.0.1:${closedPort}/v1`,
      llm_api_key: KEY,
    });
    expect(response.json).toMatchObject({ ok: false, problem: 'unreachable' });
    expect((response.json as { fix: string }).fix).toContain('base URL');
    expect(llm.calls.length).toBe(before);
  });

  it('says a remote model needs a key before calling it; a local server needs none', async () => {
    const before = llm.calls.length;
    const response = await check({ llm_model: 'openai/gpt-4o', llm_api_key: '' });
    expect(response.json).toMatchObject({ ok: false, problem: 'missing_key', key_source: 'none' });
    expect(llm.calls.length).toBe(before);

    llm.push({ text: 'OK' });
    const local = await check({ llm_model: 'openai/gpt-4o', llm_base_url: llm.baseUrl, llm_api_key: '' });
    expect(local.json).toMatchObject({ ok: true, key_source: 'none' });
    expect(llm.calls.at(-1)?.headers.authorization ?? '').not.toContain('sk-');
  });

  it('reports an unknown model as not found', async () => {
    llm.push(faults.modelNotFound());
    const response = await check({
      llm_model: 'openai/gpt-nope',
      llm_base_url: llm.baseUrl,
      llm_api_key: KEY,
    });
    expect(response.json).toMatchObject({ ok: false, problem: 'not_found' });
  });

  it('validates the body with the 422 shape', async () => {
    const response = await check({ llm_model: '', llm_base_url: 'localhost:11434', colour: 'red' });
    expect(response.status).toBe(422);
    const detail = (response.json as { detail: { type: string; loc: unknown[] }[] }).detail;
    expect(detail.map((d) => [d.type, d.loc])).toEqual(
      expect.arrayContaining([
        ['string_too_short', ['body', 'llm_model']],
        ['string_pattern_mismatch', ['body', 'llm_base_url']],
        ['extra_forbidden', ['body', 'colour']],
      ]),
    );
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await svc.api('GET', '/api/openapi.json', { key: null })).json as { paths: object };
    expect(Object.keys(doc.paths)).toContain('/api/settings/llm-check');
  });
});
