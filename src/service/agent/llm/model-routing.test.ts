import { describe, expect, it } from 'vitest';
import {
  ModelRoutingError,
  isLocalHost,
  needsApiKey,
  normalizeBaseUrl,
  resolveModelRoute,
} from './model-routing';

describe('resolveModelRoute', () => {
  it.each([
    [
      'anthropic/claude-sonnet-4-5-20250929',
      'anthropic',
      'anthropic',
      'claude-sonnet-4-5-20250929',
      'https://api.anthropic.com/v1',
    ],
    ['openai/gpt-4o', 'openai', 'openai', 'gpt-4o', 'https://api.openai.com/v1'],
    ['ollama/qwen2.5-coder', 'openai-compatible', 'ollama', 'qwen2.5-coder', 'http://127.0.0.1:11434/v1'],
    ['ollama_chat/llama3', 'openai-compatible', 'ollama_chat', 'llama3', 'http://127.0.0.1:11434/v1'],
    ['lm_studio/qwen3-coder', 'openai-compatible', 'lm_studio', 'qwen3-coder', 'http://127.0.0.1:1234/v1'],
    [
      'openrouter/anthropic/claude-sonnet-4.5',
      'openai-compatible',
      'openrouter',
      'anthropic/claude-sonnet-4.5',
      'https://openrouter.ai/api/v1',
    ],
    [
      'deepseek/deepseek-chat',
      'openai-compatible',
      'deepseek',
      'deepseek-chat',
      'https://api.deepseek.com/v1',
    ],
    [
      'groq/llama-3.3-70b-versatile',
      'openai-compatible',
      'groq',
      'llama-3.3-70b-versatile',
      'https://api.groq.com/openai/v1',
    ],
    [
      'mistral/devstral-medium-2507',
      'openai-compatible',
      'mistral',
      'devstral-medium-2507',
      'https://api.mistral.ai/v1',
    ],
    [
      'claude-opus-4-1-20250805',
      'anthropic',
      'anthropic',
      'claude-opus-4-1-20250805',
      'https://api.anthropic.com/v1',
    ],
    ['gpt-5-mini', 'openai', 'openai', 'gpt-5-mini', 'https://api.openai.com/v1'],
    ['o1', 'openai', 'openai', 'o1', 'https://api.openai.com/v1'],
    ['o3-mini', 'openai', 'openai', 'o3-mini', 'https://api.openai.com/v1'],
    ['o4-mini', 'openai', 'openai', 'o4-mini', 'https://api.openai.com/v1'],
  ])('routes %s to %s', (model, provider, providerName, modelId, baseUrl) => {
    expect(resolveModelRoute(model)).toMatchObject({ model, provider, providerName, modelId, baseUrl });
  });

  it('lets llm_base_url override the provider URL, adding /v1 to a bare origin', () => {
    expect(resolveModelRoute('openai/gpt-4o', 'https://proxy.example.com/openai/v1/').baseUrl).toBe(
      'https://proxy.example.com/openai/v1',
    );
    expect(resolveModelRoute('ollama/devstral', 'http://localhost:11434').baseUrl).toBe(
      'http://localhost:11434/v1',
    );
    expect(resolveModelRoute('anthropic/claude-haiku-4-5', 'http://127.0.0.1:4000').baseUrl).toBe(
      'http://127.0.0.1:4000/v1',
    );
  });

  it('marks local providers and loopback URLs as local, remote ones not', () => {
    expect(resolveModelRoute('ollama/qwen2.5-coder').local).toBe(true);
    expect(resolveModelRoute('lm_studio/x', 'http://192.0.2.10:1234/v1').local).toBe(true);
    expect(resolveModelRoute('openai/gpt-4o', 'http://127.0.0.1:8080/v1').local).toBe(true);
    expect(resolveModelRoute('openai/gpt-4o').local).toBe(false);
    expect(resolveModelRoute('openrouter/x/y').local).toBe(false);
  });

  it('explains a model it cannot route', () => {
    expect(() => resolveModelRoute('my-private-model')).toThrow(ModelRoutingError);
    expect(() => resolveModelRoute('my-private-model')).toThrow(/openai\/my-private-model/);
    expect(() => resolveModelRoute('hosted_vllm/qwen')).toThrow(/no default URL for provider "hosted_vllm"/);
    expect(() => resolveModelRoute('  ')).toThrow(/No model/);
    expect(() => resolveModelRoute('openai/gpt-4o', 'not a url')).toThrow(/not a valid URL/);
  });

  it('routes an unknown prefix to OpenAI-compatible when a base URL is set', () => {
    expect(resolveModelRoute('hosted_vllm/qwen', 'http://10.1.2.3:8000/v1')).toMatchObject({
      provider: 'openai-compatible',
      providerName: 'hosted_vllm',
      modelId: 'qwen',
      local: false,
    });
  });
});

describe('local hosts and API keys', () => {
  it.each(['localhost', '127.0.0.1', '127.1.2.3', '[::1]', 'host.docker.internal', 'ollama.localhost'])(
    '%s is local',
    (host) => expect(isLocalHost(host)).toBe(true),
  );

  it.each(['api.openai.com', '10.0.0.5', 'localhost.example.com'])('%s is not local', (host) =>
    expect(isLocalHost(host)).toBe(false),
  );

  it('needs a key for remote models only', () => {
    expect(needsApiKey('openai/gpt-4o', 'https://api.openai.com/v1')).toBe(true);
    expect(needsApiKey('openai/gpt-4o', null)).toBe(true);
    expect(needsApiKey('openai/gpt-4o', 'http://localhost:11434')).toBe(false);
    expect(needsApiKey('ollama/qwen2.5-coder', null)).toBe(false);
    expect(needsApiKey('lemonade/x', '')).toBe(false);
    expect(needsApiKey('bedrock/anthropic.claude', null)).toBe(false);
  });

  it('normalizes base URLs', () => {
    expect(normalizeBaseUrl(' http://localhost:1234/ ')).toBe('http://localhost:1234/v1');
    expect(normalizeBaseUrl('https://example.com/api/v1//')).toBe('https://example.com/api/v1');
  });
});
