import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ModelProbes } from '../../src/service/agent/llm/model-probes';
import { localModelServers } from '../../src/service/settings/model-probe';
import { startLocalModelServer, type FakeLocalServer } from '../support/local-model-servers';
import { startTestService, type TestService } from '../support/service';

const CODER = { name: 'qwen-coder', trainedContext: 131_072, tools: 'native' as const };

describe('local models through the API', () => {
  let svc: TestService;
  let servers: FakeLocalServer[];

  beforeEach(async () => {
    svc = await startTestService();
    servers = [];
  });
  afterEach(async () => {
    await svc.close();
    await Promise.all(servers.map((s) => s.close()));
  });

  async function serve(...args: Parameters<typeof startLocalModelServer>) {
    const server = await startLocalModelServer(...args);
    servers.push(server);
    return server;
  }

  it('Test connection reads the server and probes tool calls: the mode shows in the result and the probe', async () => {
    const server = await serve({
      kind: 'ollama',
      models: [CODER, { ...CODER, name: 'texty', tools: 'text' }],
    });
    const native = await svc.api('POST', '/api/settings/llm-check', {
      body: { llm_model: 'ollama/qwen-coder', llm_base_url: server.origin },
    });
    expect(native.json).toMatchObject({
      ok: true,
      probe: {
        server: 'ollama',
        trained_context: 131_072,
        tools: true,
        tool_mode: 'native',
        context_enough: true,
      },
    });
    const text = await svc.api('POST', '/api/settings/llm-check', {
      body: { llm_model: 'ollama/texty', llm_base_url: server.origin },
    });
    expect(text.json).toMatchObject({ ok: true, probe: { tool_mode: 'text', tools: false } });
    // The probe endpoint gives the cached facts and the mode found, as model selection asks for them.
    const probed = await svc.api('POST', '/api/settings/llm-probe', {
      body: { llm_model: 'ollama/texty', llm_base_url: server.origin },
    });
    expect(probed.status).toBe(200);
    expect(probed.json).toMatchObject({ model: 'ollama/texty', tool_mode: 'text', source: 'server' });
  });

  it('says before any conversation when the server’s context is too small, with the numbers', async () => {
    const server = await serve({ kind: 'vllm', models: [CODER], serverContext: 8192 });
    const probed = await svc.api('POST', '/api/settings/llm-probe', {
      body: { llm_model: 'openai/qwen-coder', llm_base_url: server.baseUrl },
    });
    const body = probed.json as {
      context_enough: boolean;
      context_window: number;
      context_needed: number;
      context_summary: string;
    };
    expect(body).toMatchObject({ context_enough: false, context_window: 8192, tool_mode: null });
    expect(body.context_needed).toBeGreaterThan(8192);
    expect(body.context_summary).toContain('vLLM runs the model with 8,192 tokens of context');
    expect(body.context_summary).toContain('--max-model-len');
  });

  it('answers 422 for a model it cannot route', async () => {
    const probed = await svc.api('POST', '/api/settings/llm-probe', { body: { llm_model: 'mystery-model' } });
    expect(probed.status).toBe(422);
    expect(JSON.stringify(probed.json)).toContain('Cannot tell the provider');
  });

  it('offers the models of the Ollama and LM Studio servers that answer, with their facts', async () => {
    const ollama = await serve({ kind: 'ollama', models: [CODER] });
    const lmStudio = await serve({
      kind: 'lm_studio',
      models: [{ ...CODER, name: 'devstral', loadedContext: 4096 }],
    });
    const found = await localModelServers(new ModelProbes(), {
      ollamaRoot: ollama.origin,
      lmStudioUrl: lmStudio.baseUrl,
    });
    expect(found.servers.map((s) => [s.server, s.models.map((m) => m.model)])).toEqual([
      ['ollama', ['ollama/qwen-coder']],
      ['lm_studio', ['lm_studio/devstral']],
    ]);
    expect(found.servers[1]?.models[0]).toMatchObject({ loaded_context: 4096, context_enough: true });
    const none = await localModelServers(new ModelProbes(), {
      ollamaRoot: 'http://127.0.0.1:9',
      lmStudioUrl: 'http://127.0.0.1:9/v1',
    });
    expect(none.servers).toEqual([]);
  });
});
