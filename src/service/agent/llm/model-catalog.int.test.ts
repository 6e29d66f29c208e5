import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../../../../test/support/scripted-llm';
import { ollamaModels, openAiCompatibleModels } from './local-discovery';
import { CURATED_MODELS, listModels } from './model-catalog';

let llm: ScriptedLlm;
/** A loopback server that accepts requests and never answers. */
let silent: Server;
let silentUrl: string;

beforeEach(async () => {
  llm = await startScriptedLlm([], { models: ['qwen2.5-coder:latest', 'devstral:24b'] });
  silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await llm.close();
  silent.closeAllConnections();
  await new Promise((resolve) => silent.close(resolve));
});

describe('local model discovery', () => {
  it('lists an Ollama server by /api/tags, dropping the :latest tag', async () => {
    expect(await ollamaModels(llm.origin)).toEqual(['ollama/qwen2.5-coder', 'ollama/devstral:24b']);
  });

  it('lists an OpenAI-compatible server by /models with the prefix', async () => {
    expect(await openAiCompatibleModels(llm.baseUrl, 'lm_studio')).toEqual([
      'lm_studio/qwen2.5-coder:latest',
      'lm_studio/devstral:24b',
    ]);
  });

  it('gives up on a server that does not answer in time', async () => {
    await expect(ollamaModels(silentUrl, 100)).rejects.toThrow();
  });
});

describe('listModels', () => {
  it('adds the local Ollama and LM Studio models to the curated ones, sorted and unique', async () => {
    const models = await listModels({}, { ollamaRoot: llm.origin, lmStudioUrl: llm.baseUrl });
    expect(models).toEqual([...models].sort());
    expect(models).toEqual(
      expect.arrayContaining([...CURATED_MODELS, 'ollama/devstral:24b', 'lm_studio/devstral:24b']),
    );
    expect(new Set(models).size).toBe(models.length);
  });

  it('lists the configured server with the model prefix, Ollama through its native API', async () => {
    const elsewhere = { ollamaRoot: silentUrl, lmStudioUrl: silentUrl, timeoutMs: 200 };
    const viaOllama = await listModels({ llm_base_url: llm.origin, llm_model: 'ollama/x' }, elsewhere);
    expect(viaOllama).toContain('ollama/qwen2.5-coder');
    expect(llm.requests.map((r) => r.path)).toEqual(['/api/tags']);

    const viaCompatible = await listModels(
      { llm_base_url: llm.baseUrl, llm_model: 'hosted_vllm/x' },
      elsewhere,
    );
    expect(viaCompatible).toContain('hosted_vllm/devstral:24b');

    const unprefixed = await listModels({ llm_base_url: llm.baseUrl, llm_model: 'my-model' }, elsewhere);
    expect(unprefixed).toContain('openai/devstral:24b');
  });

  it('returns the curated models when every source fails', async () => {
    const models = await listModels(
      { llm_base_url: 'not a url', llm_model: 'openai/gpt-4o' },
      { ollamaRoot: silentUrl, lmStudioUrl: silentUrl, timeoutMs: 200 },
    );
    expect(models).toEqual([...CURATED_MODELS].sort());
  });
});
