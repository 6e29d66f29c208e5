import { describe, expect, it } from 'vitest';
import { exampleModel, LLM_PROVIDERS, modelsOf, providerOfModel } from './llm-providers';

describe('model providers', () => {
  it('tells the provider from the model prefix', () => {
    expect(providerOfModel('anthropic/claude-sonnet-4-5')).toBe('anthropic');
    expect(providerOfModel('ollama_chat/llama3')).toBe('ollama');
    expect(providerOfModel('OpenAI/gpt-4o')).toBe('openai');
    expect(providerOfModel('deepseek/deepseek-chat')).toBe('other');
    expect(providerOfModel('')).toBe('other');
  });

  it('lists the models of a provider, and all of them for other', () => {
    const models = ['anthropic/a', 'ollama/b', 'openai/c', 'mistral/d'];
    expect(modelsOf('ollama', models)).toEqual(['ollama/b']);
    expect(modelsOf('other', models)).toEqual(models);
  });
});

describe('exampleModel', () => {
  it('gives each provider an example of its own models', () => {
    for (const provider of LLM_PROVIDERS) {
      if (provider.id === 'other') continue;
      expect(providerOfModel(exampleModel(provider.id))).toBe(provider.id);
    }
  });
});
