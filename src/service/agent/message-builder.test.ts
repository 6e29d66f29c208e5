import { describe, expect, it } from 'vitest';
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

  it('leaves them out for a model without vision', () => {
    const messages = buildMessages(mcpImageEvents(), 'openai/o3-mini');
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });
});
