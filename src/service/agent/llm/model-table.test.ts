import { describe, expect, it } from 'vitest';
import { contextWindowOf, supportsNativeTools, supportsVision } from './model-table';

describe('model table', () => {
  it('knows which models see images', () => {
    expect(supportsVision('anthropic/claude-sonnet-4-5-20250929')).toBe(true);
    expect(supportsVision('openai/gpt-4o')).toBe(true);
    expect(supportsVision('deepseek/deepseek-chat')).toBe(false);
    expect(supportsVision('ollama/some-unknown-model')).toBe(false);
  });

  it('knows models without native tool calls and context windows', () => {
    expect(supportsNativeTools('ollama/deepseek-r1:14b')).toBe(false);
    expect(supportsNativeTools('ollama/some-unknown-model')).toBe(true);
    expect(contextWindowOf('claude-sonnet-4-5')).toBe(200_000);
    expect(contextWindowOf('ollama/some-unknown-model')).toBeUndefined();
  });
});
