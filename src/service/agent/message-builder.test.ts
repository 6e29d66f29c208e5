import { describe, expect, it } from 'vitest';
import type { V0Event } from '../../shared/api/events';
import { mcpImageEvents, PIXEL_BASE64 } from '../../../test/mcp/fixtures/image-events';
import { buildMessages } from './message-builder';

describe('buildMessages with images in tool results', () => {
  it('gives a vision model the images in a labelled user message right after the tool results', () => {
    const messages = buildMessages(mcpImageEvents(), 'openai/gpt-4o');
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(messages[2]?.content).toEqual([
      {
        type: 'tool-result',
        toolCallId: 'call_shot',
        toolName: 'screenshot',
        output: { type: 'text', value: 'the page' },
      },
    ]);
    expect(messages[3]?.content).toEqual([
      { type: 'text', text: 'Images returned by the tool screenshot (call call_shot):' },
      { type: 'text', text: 'Image 1:' },
      { type: 'file', data: { type: 'data', data: PIXEL_BASE64 }, mediaType: 'image/png' },
    ]);
  });

  it('says [image omitted] in the result for a model without vision (the model was switched)', () => {
    const messages = buildMessages(mcpImageEvents(), 'openai/o3-mini');
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(messages[2]?.content).toEqual([
      expect.objectContaining({ output: { type: 'text', value: 'the page\n[image omitted]' } }),
    ]);
  });

  it("says [image omitted] for a user's images when the model has no vision", () => {
    const [message, ...rest] = mcpImageEvents();
    const withImages = {
      ...message,
      args: { content: 'look', image_urls: [`data:image/png;base64,${PIXEL_BASE64}`] },
    };
    const messages = buildMessages([withImages as V0Event, ...rest], 'openai/o3-mini');
    expect(messages[0]).toEqual({ role: 'user', content: 'look\n[image omitted]' });
  });
});
