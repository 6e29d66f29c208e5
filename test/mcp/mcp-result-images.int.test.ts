import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildMessages } from '../../src/service/agent/message-builder';
import { createLlmClient } from '../../src/service/agent/llm/llm-client';
import type { LlmToolDefinition } from '../../src/service/agent/llm/llm-types';
import { instantTiming } from '../support/scripted-llm/instant-timing';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import { mcpImageEvents, PIXEL_BASE64 } from './fixtures/image-events';

const TOOLS: LlmToolDefinition[] = [
  { name: 'screenshot', description: 'Takes a screenshot', parameters: { type: 'object', properties: {} } },
];
const LABEL = 'Images returned by the tool screenshot (call call_shot):';

let llm: ScriptedLlm;

beforeEach(async () => {
  llm = await startScriptedLlm();
});

afterEach(async () => {
  await llm.close();
});

/** Sends the conversation with an MCP image result to a vision model; the request body the server got. */
async function sentBody(model: string): Promise<Record<string, unknown>> {
  llm.push({ text: 'A single pixel.' });
  const client = createLlmClient({
    model,
    apiKey: 'sk-test-images-4c1d',
    baseUrl: llm.baseUrl,
    timing: instantTiming().timing,
  });
  const reply = await client.complete({
    system: 'You are a careful engineer.',
    messages: buildMessages(mcpImageEvents(), model),
    tools: TOOLS,
  });
  expect(reply.text).toBe('A single pixel.');
  expect(llm.remaining).toBe(0);
  return llm.calls[0]?.body ?? {};
}

describe('images of MCP results reach a vision model after the tool results', () => {
  it('over OpenAI chat completions: a user message after the tool message', async () => {
    const messages = (await sentBody('openai/gpt-4o')).messages as Record<string, unknown>[];
    expect(messages.slice(-2)).toEqual([
      { role: 'tool', tool_call_id: 'call_shot', content: 'the page' },
      {
        role: 'user',
        content: [
          { type: 'text', text: LABEL },
          { type: 'text', text: 'Image 1:' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PIXEL_BASE64}` } },
        ],
      },
    ]);
  });

  it('over Anthropic messages: image blocks after the tool_result in the same user turn', async () => {
    const messages = (await sentBody('anthropic/claude-sonnet-4-5')).messages as {
      role: string;
      content: Record<string, unknown>[];
    }[];
    const last = messages.at(-1);
    expect(last?.role).toBe('user');
    expect(last?.content).toMatchObject([
      { type: 'tool_result', tool_use_id: 'call_shot', content: 'the page' },
      { type: 'text', text: LABEL },
      { type: 'text', text: 'Image 1:' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL_BASE64 } },
    ]);
  });
});
