import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlmClient } from '../../src/service/agent/llm/llm-client';
import { faults } from '../support/scripted-llm';
import { instantTiming } from '../support/scripted-llm/instant-timing';
import { until } from '../support/until';
import { REAL_KEY, sseEvents, startGatewayFixture, type GatewayFixture } from './gateway-fixture';

/** Claude Code on an OpenAI-compatible model: Anthropic Messages in, Chat Completions out. */

const TOOLS = [
  {
    name: 'Bash',
    description: 'Run a command',
    input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  },
];

let fx: GatewayFixture;

beforeAll(async () => {
  fx = await startGatewayFixture({ model: 'openai/qwen-coder' });
});
afterAll(async () => {
  await fx.close();
});

describe('Anthropic Messages translated to an OpenAI-compatible model', () => {
  it('a non-streamed message with a tool call: the Chat request, the Anthropic reply', async () => {
    const { endpoint } = await fx.conversation();
    fx.llm.push({
      text: 'Listing.',
      toolCalls: [{ id: 'call_7', name: 'Bash', args: { command: 'ls' } }],
      usage: { input: 90, output: 12, cacheRead: 10 },
    });
    const response = await fx.call('/v1/messages', {
      headers: { 'x-api-key': endpoint.token, 'anthropic-version': '2023-06-01' },
      body: {
        model: 'claude-sonnet-4-5',
        max_tokens: 1024,
        system: [{ type: 'text', text: 'You are Claude Code.' }],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'List the files.' }] }],
        tools: TOOLS,
        tool_choice: { type: 'auto' },
      },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'qwen-coder',
      content: [
        { type: 'text', text: 'Listing.' },
        { type: 'tool_use', id: 'call_7', name: 'Bash', input: { command: 'ls' } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 90, cache_read_input_tokens: 10, output_tokens: 12 },
    });
    const sent = fx.llm.calls.at(-1);
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.auth).toBe(`Bearer ${REAL_KEY}`);
    // An `openai/` model: OpenAI's API takes the limit as max_completion_tokens.
    expect(sent?.body?.max_tokens).toBeUndefined();
    expect(sent?.body).toMatchObject({
      model: 'qwen-coder',
      max_completion_tokens: 1024,
      messages: [
        { role: 'system', content: 'You are Claude Code.' },
        { role: 'user', content: 'List the files.' },
      ],
      tools: [{ type: 'function', function: { name: 'Bash', parameters: TOOLS[0]?.input_schema } }],
      tool_choice: 'auto',
    });
  });

  it('a streamed reply is the exact Anthropic event sequence', async () => {
    const { endpoint } = await fx.conversation();
    fx.llm.push({
      text: 'Running it now.',
      toolCalls: [{ id: 'call_9', name: 'Bash', args: { command: 'npm test' } }],
      usage: { input: 200, output: 30 },
    });
    const response = await fx.call('/v1/messages?beta=true', {
      headers: { 'x-api-key': endpoint.token },
      body: {
        model: 'claude-sonnet-4-5',
        max_tokens: 100,
        stream: true,
        messages: [{ role: 'user', content: 'Test it.' }],
        tools: TOOLS,
      },
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = sseEvents(await response.text());
    const types = events.map((e) => e.event);
    expect(types[0]).toBe('message_start');
    expect(types[1]).toBe('ping');
    const rest = types.slice(2);
    const textDeltas = rest.filter(
      (t, i) => t === 'content_block_delta' && i < rest.indexOf('content_block_stop'),
    );
    expect(textDeltas.length).toBeGreaterThan(1);
    expect(rest).toEqual([
      'content_block_start',
      ...textDeltas,
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    for (const e of events) expect((e.data as { type: string }).type).toBe(e.event);
    const starts = events.filter((e) => e.event === 'content_block_start').map((e) => e.data);
    expect(starts).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 'call_9', name: 'Bash', input: {} },
      },
    ]);
    const json = events
      .filter((e) => e.event === 'content_block_delta' && (e.data as { index: number }).index === 1)
      .map((e) => (e.data as { delta: { partial_json: string } }).delta.partial_json)
      .join('');
    expect(JSON.parse(json)).toEqual({ command: 'npm test' });
    expect(events.find((e) => e.event === 'message_delta')?.data).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: {
        input_tokens: 200,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: 30,
      },
    });
    expect(fx.llm.calls.at(-1)?.body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('an Anthropic SDK client makes a tool call round trip through the gateway', async () => {
    const { id, endpoint } = await fx.conversation();
    const client = createLlmClient({
      model: 'anthropic/claude-sonnet-4-5',
      apiKey: endpoint.token,
      baseUrl: `${endpoint.anthropicBaseUrl}/v1`,
      timing: instantTiming().timing,
    });
    const tools = [{ name: 'Bash', description: 'Run a command', parameters: TOOLS[0]?.input_schema ?? {} }];
    fx.llm.push(
      {
        toolCalls: [{ id: 'call_a', name: 'Bash', args: { command: 'ls' } }],
        usage: { input: 100, output: 10 },
      },
      { text: 'There is one file: README.md.', usage: { input: 150, output: 8 } },
    );
    const first = await client.complete({
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'What is here?' }],
      tools,
    });
    expect(first.toolCalls).toEqual([
      expect.objectContaining({ id: 'call_a', name: 'Bash', args: { command: 'ls' } }),
    ]);
    expect(first.usage).toMatchObject({ prompt: 100, completion: 10 });

    const second = await client.complete({
      system: 'Be brief.',
      tools,
      messages: [
        { role: 'user', content: 'What is here?' },
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'call_a', toolName: 'Bash', input: { command: 'ls' } }],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'call_a',
              toolName: 'Bash',
              output: { type: 'text', value: 'README.md' },
            },
          ],
        },
      ],
    });
    expect(second.text).toBe('There is one file: README.md.');
    expect(fx.llm.calls.at(-1)?.body?.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'What is here?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'Bash', arguments: '{"command":"ls"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'README.md' },
    ]);

    // Both calls are in the conversation's metrics.
    const view = await fx.service.api('GET', `/api/v1/app-conversations/${id}`);
    expect(view.json).toMatchObject({
      metrics: { accumulated_token_usage: { prompt_tokens: 250, completion_tokens: 18 } },
    });
  });
});

describe('Anthropic Messages translated: the rest of what Claude Code calls, and failures', () => {
  it("a reasoning model's thoughts come as a thinking block before the text, streamed or not", async () => {
    const { endpoint } = await fx.conversation();
    fx.llm.push(
      { reasoning: 'The user wants a greeting.', text: 'Hello!' },
      { reasoning: 'Again a greeting.', text: 'Hello again!' },
    );
    const request = { model: 'c', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] };
    const streamed = await fx.call('/v1/messages', {
      headers: { 'x-api-key': endpoint.token },
      body: { ...request, stream: true },
    });
    const events = sseEvents(await streamed.text());
    const blocks = events.filter((e) => e.event === 'content_block_start').map((e) => e.data);
    expect(blocks).toEqual([
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
    ]);
    const thinking = events
      .map((e) => (e.data as { delta?: { thinking?: string } }).delta?.thinking)
      .filter((t) => t !== undefined)
      .join('');
    expect(thinking).toBe('The user wants a greeting.');

    const whole = await fx.call('/v1/messages', { headers: { 'x-api-key': endpoint.token }, body: request });
    expect(await whole.json()).toMatchObject({
      content: [
        { type: 'thinking', thinking: 'Again a greeting.' },
        { type: 'text', text: 'Hello again!' },
      ],
    });
  });

  it('an image a tool returned reaches the model in a user message after the tool results', async () => {
    const { endpoint } = await fx.conversation();
    fx.llm.push({ text: 'A red square.' });
    const image = {
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' },
    };
    const response = await fx.call('/v1/messages', {
      headers: { 'x-api-key': endpoint.token },
      body: {
        model: 'c',
        max_tokens: 50,
        messages: [
          { role: 'user', content: 'Look at shot.png' },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'toolu_r', name: 'Read', input: { file_path: 'shot.png' } }],
          },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 'toolu_r',
                content: [{ type: 'text', text: 'The image:' }, image],
              },
              { type: 'text', text: 'What is it?' },
            ],
          },
        ],
      },
    });
    expect(response.status).toBe(200);
    expect((fx.llm.calls.at(-1)?.body?.messages as unknown[]).slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'toolu_r', content: 'The image:' },
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'text', text: 'What is it?' },
        ],
      },
    ]);
  });

  it('count_tokens is an estimate, the model list names the conversation model', async () => {
    const { endpoint } = await fx.conversation();
    const calls = fx.llm.calls.length;
    const counted = await fx.call('/v1/messages/count_tokens?beta=true', {
      headers: { 'x-api-key': endpoint.token },
      body: { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'x'.repeat(400) }] },
    });
    expect(counted.status).toBe(200);
    const { input_tokens } = (await counted.json()) as { input_tokens: number };
    expect(input_tokens).toBeGreaterThanOrEqual(100);
    expect(input_tokens).toBeLessThan(130);
    const models = await fx.call('/v1/models', { headers: { 'x-api-key': endpoint.token } });
    expect(await models.json()).toMatchObject({
      data: [{ id: 'qwen-coder', type: 'model' }],
      has_more: false,
    });
    expect(fx.llm.calls.length).toBe(calls);
  });

  it('a provider stream that breaks off ends with an Anthropic error event, and what arrived is counted', async () => {
    const { id, endpoint } = await fx.conversation();
    fx.llm.push(faults.dropStream(3, { text: 'This reply is cut off before its end.' }));
    const response = await fx.call('/v1/messages', {
      headers: { 'x-api-key': endpoint.token },
      body: {
        model: 'claude-sonnet-4-5',
        max_tokens: 100,
        stream: true,
        messages: [{ role: 'user', content: 'Go.' }],
      },
    });
    const events = sseEvents(await response.text());
    expect(events.at(-1)).toMatchObject({
      event: 'error',
      data: { type: 'error', error: { type: 'api_error' } },
    });
    expect(events.map((e) => e.event)).not.toContain('message_stop');
    const view = await fx.service.api('GET', `/api/v1/app-conversations/${id}`);
    expect(view.json).toMatchObject({
      metrics: { accumulated_token_usage: { completion_tokens: expect.any(Number) } },
    });
  });

  it('a client that goes away ends the provider call', async () => {
    const { endpoint } = await fx.conversation();
    fx.llm.push({ fault: 'hang', afterEvents: 2, reply: { text: 'one two three four five' } });
    const abort = new AbortController();
    const response = await fetch(`${fx.base}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': endpoint.token },
      body: JSON.stringify({
        model: 'c',
        max_tokens: 10,
        stream: true,
        messages: [{ role: 'user', content: 'Go.' }],
      }),
      signal: abort.signal,
    });
    const reader = response.body?.getReader();
    await reader?.read();
    const call = fx.llm.calls.at(-1);
    abort.abort();
    await until(
      async () => call?.clientClosed,
      (closed) => closed === true,
      'the provider call to end',
    );
  });

  it('a non-streamed provider reply that is not JSON is a 502 in the Anthropic format', async () => {
    const { endpoint } = await fx.conversation();
    fx.llm.push(faults.malformedJson());
    const response = await fx.call('/v1/messages', {
      headers: { 'x-api-key': endpoint.token },
      body: { model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'Go.' }] },
    });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'api_error' } });
  });
});
