import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { instantTiming } from '../../../../test/support/scripted-llm/instant-timing';
import { startScriptedLlm, type ScriptedLlm } from '../../../../test/support/scripted-llm';
import { createLlmClient } from './llm-client';
import type { LlmClientConfig, LlmToolDefinition } from './llm-types';

const KEY = 'sk-ant-test-0d9e8f7a6b5c';

const TOOLS: LlmToolDefinition[] = [
  {
    name: 'str_replace_editor',
    description: 'View or edit a file',
    parameters: {
      type: 'object',
      properties: { command: { type: 'string' }, path: { type: 'string' } },
      required: ['command', 'path'],
    },
  },
  {
    name: 'finish',
    description: 'Finish the task',
    parameters: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  },
];

let llm: ScriptedLlm;

beforeEach(async () => {
  llm = await startScriptedLlm();
});

afterEach(async () => {
  await llm.close();
});

function client(config: Partial<LlmClientConfig> = {}) {
  return createLlmClient({
    model: 'anthropic/claude-sonnet-4-5-20250929',
    apiKey: KEY,
    baseUrl: llm.baseUrl,
    timing: instantTiming().timing,
    ...config,
  });
}

describe('LlmClient over Anthropic Messages', () => {
  it('streams a text reply with cache usage and its cost', async () => {
    llm.push({
      text: 'Done reading.',
      id: 'msg_abc',
      usage: { input: 100, output: 50, cacheRead: 2000, cacheWrite: 300 },
    });

    const reply = await client().complete({
      system: 'You are a careful engineer.',
      messages: [{ role: 'user', content: 'Read the README.' }],
      temperature: 0,
    });

    expect(reply.text).toBe('Done reading.');
    expect(reply.responseId).toBe('msg_abc');
    expect(reply.usage).toEqual({
      prompt: 2400,
      completion: 50,
      cache_read: 2000,
      cache_write: 300,
      estimated: false,
    });
    // claude-sonnet-4-5: $3 input, $0.30 cache read, $3.75 cache write, $15 output per 1M tokens.
    expect(reply.cost.usd).toBeCloseTo((100 * 3 + 2000 * 0.3 + 300 * 3.75 + 50 * 15) / 1e6, 10);
    expect(reply.cost.known).toBe(true);

    const [call] = llm.calls;
    expect(call?.path).toBe('/v1/messages');
    expect(call?.headers['x-api-key']).toBe(KEY);
    expect(call?.body).toMatchObject({ model: 'claude-sonnet-4-5-20250929', stream: true, temperature: 0 });
  });

  it('puts cache breakpoints on the system message and the last user or tool message', async () => {
    llm.push({ text: 'ok' });
    await client().complete({
      system: 'System prompt',
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'answer' },
        { role: 'user', content: 'second' },
      ],
    });

    const body = llm.calls[0]?.body as {
      system: { cache_control?: unknown }[];
      messages: { content: { cache_control?: unknown }[] }[];
    };
    expect(body.system.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
    expect(body.messages[0]?.content.at(-1)?.cache_control).toBeUndefined();
    expect(body.messages[2]?.content.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
  });

  it('returns two tool_use blocks of one response as tool calls', async () => {
    llm.push({
      text: 'Viewing, then finishing.',
      toolCalls: [
        {
          id: 'toolu_1',
          name: 'str_replace_editor',
          args: { command: 'view', path: '/workspace/project/README.md' },
        },
        { id: 'toolu_2', name: 'finish', args: { message: 'All done' } },
      ],
    });

    const reply = await client().complete({
      system: 'sys',
      messages: [{ role: 'user', content: 'go' }],
      tools: TOOLS,
    });

    expect(reply.text).toBe('Viewing, then finishing.');
    expect(reply.finishReason).toBe('tool-calls');
    expect(reply.toolCalls).toEqual([
      {
        id: 'toolu_1',
        name: 'str_replace_editor',
        rawArgs: '{"command":"view","path":"/workspace/project/README.md"}',
        args: { command: 'view', path: '/workspace/project/README.md' },
      },
      { id: 'toolu_2', name: 'finish', rawArgs: '{"message":"All done"}', args: { message: 'All done' } },
    ]);
    const tools = llm.calls[0]?.body?.tools as { name: string; input_schema: unknown }[];
    expect(tools.map((t) => t.name)).toEqual(['str_replace_editor', 'finish']);
  });

  it('sends earlier tool calls and their results back in Anthropic form', async () => {
    llm.push({ text: 'The file is short.' });
    await client().complete({
      system: 'sys',
      tools: TOOLS,
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Viewing.' },
            {
              type: 'tool-call',
              toolCallId: 'toolu_9',
              toolName: 'str_replace_editor',
              input: { command: 'view', path: '/a' },
            },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'toolu_9',
              toolName: 'str_replace_editor',
              output: { type: 'text', value: 'line 1' },
            },
          ],
        },
      ],
    });

    const messages = llm.calls[0]?.body?.messages as { role: string; content: { type: string }[] }[];
    expect(messages[1]?.content).toContainEqual(expect.objectContaining({ type: 'tool_use', id: 'toolu_9' }));
    expect(messages[2]?.content).toContainEqual(
      expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_9' }),
    );
  });
});
