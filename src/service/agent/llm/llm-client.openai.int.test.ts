import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { instantTiming } from '../../../../test/support/scripted-llm/instant-timing';
import { startScriptedLlm, type ScriptedLlm } from '../../../../test/support/scripted-llm';
import { createLlmClient } from './llm-client';
import type { LlmClientConfig, LlmToolDefinition } from './llm-types';

const KEY = 'sk-test-5f0c9a1e7b2d4c68';

const TOOLS: LlmToolDefinition[] = [
  {
    name: 'execute_bash',
    description: 'Run a command',
    parameters: {
      type: 'object',
      properties: { command: { type: 'string' }, timeout: { type: 'number' } },
      required: ['command'],
    },
  },
  {
    name: 'think',
    description: 'Log a thought',
    parameters: { type: 'object', properties: { thought: { type: 'string' } }, required: ['thought'] },
  },
];

const ASK = {
  system: 'You are a careful engineer.',
  messages: [{ role: 'user' as const, content: 'List the files.' }],
};

let llm: ScriptedLlm;

beforeEach(async () => {
  llm = await startScriptedLlm();
});

afterEach(async () => {
  await llm.close();
});

function client(config: Partial<LlmClientConfig> = {}) {
  return createLlmClient({
    model: 'openai/gpt-4o',
    apiKey: KEY,
    baseUrl: llm.baseUrl,
    timing: instantTiming().timing,
    ...config,
  });
}

describe('LlmClient over OpenAI Chat Completions', () => {
  it('streams a text reply and reports usage, cost and the response id', async () => {
    llm.push({
      text: 'Here are the files.',
      usage: { input: 1000, output: 200, cacheRead: 500 },
      id: 'chatcmpl-x1',
    });

    const reply = await client().complete({ ...ASK, temperature: 0 });

    expect(reply.text).toBe('Here are the files.');
    expect(reply.toolCalls).toEqual([]);
    expect(reply.responseId).toBe('chatcmpl-x1');
    expect(reply.model).toBe('gpt-4o');
    expect(reply.usage).toEqual({
      prompt: 1500,
      completion: 200,
      cache_read: 500,
      cache_write: 0,
      estimated: false,
    });
    // gpt-4o: $2.50 input, $1.25 cached input, $10 output per 1M tokens.
    expect(reply.cost.known).toBe(true);
    expect(reply.cost.usd).toBeCloseTo((1000 * 2.5 + 500 * 1.25 + 200 * 10) / 1e6, 10);
    expect(reply.latencyMs).toBeGreaterThan(0);

    const [call] = llm.calls;
    expect(call?.path).toBe('/v1/chat/completions');
    expect(call?.auth).toBe(`Bearer ${KEY}`);
    expect(call?.stream).toBe(true);
    expect(call?.body).toMatchObject({
      model: 'gpt-4o',
      temperature: 0,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'You are a careful engineer.' },
        { role: 'user', content: 'List the files.' },
      ],
    });
  });

  it('returns two tool calls of one response with raw and parsed arguments', async () => {
    llm.push({
      text: 'Let me look.',
      toolCalls: [
        { id: 'call_a', name: 'execute_bash', args: { command: 'ls -la', timeout: 10 } },
        { id: 'call_b', name: 'think', args: '{"thought": "unfinished' },
      ],
    });

    const reply = await client().complete({ ...ASK, tools: TOOLS });

    expect(reply.text).toBe('Let me look.');
    expect(reply.finishReason).toBe('tool-calls');
    expect(reply.toolCalls).toHaveLength(2);
    expect(reply.toolCalls[0]).toEqual({
      id: 'call_a',
      name: 'execute_bash',
      rawArgs: '{"command":"ls -la","timeout":10}',
      args: { command: 'ls -la', timeout: 10 },
    });
    expect(reply.toolCalls[1]).toMatchObject({
      id: 'call_b',
      name: 'think',
      rawArgs: '{"thought": "unfinished',
      args: undefined,
    });
    expect(reply.toolCalls[1]?.argsError).toMatch(/not valid JSON/);

    const tools = llm.calls[0]?.body?.tools as { function: { name: string; parameters: unknown } }[];
    expect(tools.map((t) => t.function.name)).toEqual(['execute_bash', 'think']);
    expect(tools[0]?.function.parameters).toMatchObject({ required: ['command'] });
  });

  it('knows no cost for an unpriced remote model', async () => {
    llm.push({ text: 'ok', usage: { input: 10, output: 5 } });
    const remote = 'https://llm.example.test/v1';
    const reply = await client({
      model: 'openai/unlisted-model-1',
      baseUrl: remote,
      fetch: (input, init) =>
        fetch(String(input instanceof Request ? input.url : input).replace(remote, llm.baseUrl), init),
    }).complete(ASK);

    expect(reply.usage).toMatchObject({ prompt: 10, completion: 5 });
    expect(reply.cost).toEqual({ usd: 0, known: false, source: 'unknown' });
  });

  it('costs nothing, knowingly, for a local Ollama model', async () => {
    llm.push({ text: 'ok', usage: { input: 10, output: 5 } });
    const reply = await client({ model: 'ollama/qwen2.5-coder', apiKey: null }).complete(ASK);

    expect(reply.cost).toEqual({ usd: 0, known: true, source: 'local' });
    expect(llm.calls[0]?.body?.model).toBe('qwen2.5-coder');
    expect(llm.calls[0]?.auth).toBeUndefined();
  });

  it('takes a provider-reported cost first (OpenRouter usage.cost)', async () => {
    llm.push({ text: 'ok', usage: { input: 10, output: 5, cost: 0.0042 } });
    const reply = await client({ model: 'openrouter/anthropic/claude-sonnet-4.5' }).complete(ASK);

    expect(reply.cost).toEqual({ usd: 0.0042, known: true, source: 'provider' });
    expect(llm.calls[0]?.body?.model).toBe('anthropic/claude-sonnet-4.5');
  });

  it('takes the cost a LiteLLM proxy reports in its response header', async () => {
    llm.push({ text: 'ok', headers: { 'x-litellm-response-cost': '0.0031' } });
    const reply = await client({ model: 'openai/unlisted-model-2' }).complete(ASK);

    expect(reply.cost).toEqual({ usd: 0.0031, known: true, source: 'provider' });
  });

  it('estimates usage at 4 characters a token when the provider reports none', async () => {
    llm.push({ text: 'abcdefgh', usage: null });
    const reply = await client().complete({
      system: 'x'.repeat(40),
      messages: [{ role: 'user', content: 'y'.repeat(40) }],
    });

    expect(reply.usage).toEqual({
      prompt: 20,
      completion: 2,
      cache_read: 0,
      cache_write: 0,
      estimated: true,
    });
    expect(reply.cost.known).toBe(true);
  });

  it('uses the text tool format for models without native tool calls', async () => {
    llm.push({
      text: 'I will list.\n<function=execute_bash>\n<parameter=command>ls</parameter>\n<parameter=timeout>5</parameter>\n',
    });
    const reply = await client().complete({ ...ASK, tools: TOOLS, toolFormat: 'text' });

    expect(reply.text).toBe('I will list.');
    expect(reply.toolCalls).toMatchObject([{ name: 'execute_bash', args: { command: 'ls', timeout: 5 } }]);
    const body = llm.calls[0]?.body;
    expect(body?.tools).toBeUndefined();
    expect(body?.stop).toEqual(['</function']);
    expect(JSON.stringify(body?.messages)).toContain('---- BEGIN FUNCTION #1: execute_bash ----');
  });
});
