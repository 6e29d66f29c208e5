import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { providerPrompt, providerTools } from './provider-prompt';

/** Only what the conversion reads of a model: which URLs it fetches itself. */
function modelFetching(supportedUrls: Record<string, RegExp[]>): LanguageModelV4 {
  return { supportedUrls } as unknown as LanguageModelV4;
}

const signal = new AbortController().signal;
const system = { role: 'system' as const, content: 'You are Dockhand.' };
const pixel = { type: 'data' as const, data: 'iVBORw0KGgo=' };

describe('providerPrompt', () => {
  it('puts the system message first and every text in parts, leaving empty texts out', async () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: '' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'think', input: { thought: 't' } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'think', output: { type: 'text', value: 'ok' } },
        ],
      },
      { role: 'assistant', content: 'done' },
    ];
    expect(await providerPrompt(system, messages, modelFetching({}), signal)).toEqual([
      { role: 'system', content: 'You are Dockhand.' },
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'think', input: { thought: 't' } }],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'think', output: { type: 'text', value: 'ok' } },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
    ]);
  });

  it('keeps inline images and the image URLs the model fetches itself', async () => {
    const url = new URL('https://example.com/shot.png');
    const messages: ModelMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'file', data: pixel, mediaType: 'image/png' },
          { type: 'file', data: { type: 'url', url }, mediaType: 'image' },
        ],
      },
    ];
    const model = modelFetching({ 'image/*': [/^https?:\/\/.*$/] });
    const [, user] = await providerPrompt(system, messages, model, signal);
    expect(user?.content).toEqual(messages[0]?.content);
  });

  it("downloads an image URL the model cannot fetch, through the SDK's guarded download", async () => {
    const url = new URL('http://localhost:9/shot.png');
    const messages: ModelMessage[] = [
      { role: 'user', content: [{ type: 'file', data: { type: 'url', url }, mediaType: 'image' }] },
    ];
    // The SDK refuses local addresses before any request is made.
    await expect(providerPrompt(system, messages, modelFetching({}), signal)).rejects.toThrow(
      /hostname localhost is not allowed/,
    );
  });
});

describe('providerTools', () => {
  it('gives function tools, the same list for the same definitions', () => {
    const definitions = [{ name: 'think', description: 'Think.', parameters: { type: 'object' as const } }];
    const tools = providerTools(definitions);
    expect(tools).toEqual([
      { type: 'function', name: 'think', description: 'Think.', inputSchema: { type: 'object' } },
    ]);
    expect(providerTools(definitions)).toBe(tools);
  });
});
