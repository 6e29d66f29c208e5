import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REAL_KEY, sseEvents, startGatewayFixture, type GatewayFixture } from './gateway-fixture';

/** Codex on an OpenAI-compatible model: OpenAI Responses in, Chat Completions out. */

let fx: GatewayFixture;

beforeAll(async () => {
  fx = await startGatewayFixture({ model: 'lm_studio/qwen3-coder' });
});
afterAll(async () => {
  await fx.close();
});

const bash = (outputs: string[]) =>
  tool({
    description: 'Run a shell command',
    inputSchema: jsonSchema<{ command: string }>({
      type: 'object',
      properties: { command: { type: 'string' } },
      required: ['command'],
    }),
    execute: async ({ command }) => {
      outputs.push(command);
      return 'README.md\n';
    },
  });

describe('OpenAI Responses translated to an OpenAI-compatible model', () => {
  it('a Responses client makes a streamed tool call round trip', async () => {
    const { id, endpoint } = await fx.conversation();
    const responses = createOpenAI({ baseURL: endpoint.openaiBaseUrl, apiKey: endpoint.token }).responses(
      'gpt-5-codex',
    );
    fx.llm.push(
      {
        text: 'Let me look.',
        toolCalls: [{ id: 'call_r1', name: 'shell', args: { command: 'ls' } }],
        usage: { input: 300, output: 20 },
      },
      { text: 'The repository has a README.', usage: { input: 340, output: 9 } },
    );
    const ran: string[] = [];
    const result = streamText({
      model: responses,
      system: 'You are Codex.',
      prompt: 'What is in the repository?',
      tools: { shell: bash(ran) },
      stopWhen: stepCountIs(2),
    });
    expect(await result.text).toBe('The repository has a README.');
    expect(ran).toEqual(['ls']);

    const [first, second] = fx.llm.calls.slice(-2);
    expect(first?.auth).toBe(`Bearer ${REAL_KEY}`);
    expect(first?.path).toBe('/v1/chat/completions');
    expect(first?.body).toMatchObject({
      model: 'qwen3-coder',
      stream: true,
      tools: [{ type: 'function', function: { name: 'shell' } }],
    });
    const messages = second?.body?.messages as { role: string }[];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(messages[2]).toMatchObject({
      role: 'assistant',
      content: 'Let me look.',
      tool_calls: [
        { id: 'call_r1', type: 'function', function: { name: 'shell', arguments: '{"command":"ls"}' } },
      ],
    });
    expect(messages[3]).toMatchObject({ role: 'tool', tool_call_id: 'call_r1' });

    const view = await fx.service.api('GET', `/api/v1/app-conversations/${id}`);
    expect(view.json).toMatchObject({
      metrics: { accumulated_token_usage: { prompt_tokens: 640, completion_tokens: 29 } },
    });
  });

  it('the stream has the Responses event names, in order, ending with response.completed and its usage', async () => {
    const { endpoint } = await fx.conversation();
    fx.llm.push({
      text: 'Two words.',
      toolCalls: [{ name: 'shell', args: { command: 'pwd' } }],
      usage: { input: 50, output: 5 },
    });
    const response = await fx.call('/v1/responses', {
      token: endpoint.token,
      body: {
        model: 'gpt-5-codex',
        stream: true,
        input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
      },
    });
    const events = sseEvents(await response.text());
    expect(events.map((e) => e.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((e) => (e.data as { sequence_number: number }).sequence_number)).toEqual(
      events.map((_, i) => i),
    );
    expect(events.at(-1)?.data).toMatchObject({
      response: {
        status: 'completed',
        output: [
          { type: 'message', content: [{ type: 'output_text', text: 'Two words.' }] },
          { type: 'function_call', name: 'shell', arguments: '{"command":"pwd"}' },
        ],
        usage: { input_tokens: 50, output_tokens: 5, total_tokens: 55 },
      },
    });
  });

  it('a non-streamed response', async () => {
    const { endpoint } = await fx.conversation();
    const responses = createOpenAI({ baseURL: endpoint.openaiBaseUrl, apiKey: endpoint.token }).responses(
      'gpt-5-codex',
    );
    fx.llm.push({ text: 'Plain answer.', usage: { input: 10, output: 3 } });
    const result = await generateText({ model: responses, prompt: 'Say something.' });
    expect(result.text).toBe('Plain answer.');
    expect(result.usage).toMatchObject({ inputTokens: 10, outputTokens: 3 });
    expect(fx.llm.calls.at(-1)?.body?.stream).toBeUndefined();
  });

  it("Codex's custom apply_patch tool: offered as a function with one input, its calls and results as custom items", async () => {
    const { endpoint } = await fx.conversation();
    const patch = '*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch';
    fx.llm.push(
      { toolCalls: [{ id: 'call_p2', name: 'apply_patch', args: { input: patch } }] },
      { toolCalls: [{ id: 'call_p3', name: 'apply_patch', args: { input: patch } }] },
    );
    const body = {
      model: 'gpt-5-codex',
      instructions: 'You are Codex.',
      tools: [
        {
          type: 'custom',
          name: 'apply_patch',
          description: 'Edit files with a patch.',
          format: { type: 'grammar', syntax: 'lark', definition: 'start: begin_patch hunk+ end_patch' },
        },
        { type: 'function', name: 'shell', parameters: { type: 'object', properties: {} } },
        { type: 'web_search' },
      ],
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Add hello.txt' }] },
        { type: 'reasoning', summary: [] },
        { type: 'custom_tool_call', call_id: 'call_p1', name: 'apply_patch', input: patch },
        { type: 'custom_tool_call_output', call_id: 'call_p1', output: 'Done!' },
      ],
    };
    const streamed = await fx.call('/v1/responses', {
      token: endpoint.token,
      body: { ...body, stream: true },
    });
    const events = sseEvents(await streamed.text());
    expect(events.map((e) => e.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events[5]?.data).toMatchObject({
      item: {
        type: 'custom_tool_call',
        call_id: 'call_p2',
        name: 'apply_patch',
        input: patch,
        status: 'completed',
      },
    });
    const sent = fx.llm.calls.at(-1)?.body;
    expect(sent?.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'apply_patch',
          description: 'Edit files with a patch.',
          parameters: {
            type: 'object',
            properties: {
              input: {
                type: 'string',
                description:
                  "The tool's whole input, as plain text. It must follow this lark grammar:\nstart: begin_patch hunk+ end_patch",
              },
            },
            required: ['input'],
          },
        },
      },
      { type: 'function', function: { name: 'shell', parameters: { type: 'object', properties: {} } } },
    ]);
    expect(sent?.messages).toEqual([
      { role: 'system', content: 'You are Codex.' },
      { role: 'user', content: 'Add hello.txt' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_p1',
            type: 'function',
            function: { name: 'apply_patch', arguments: JSON.stringify({ input: patch }) },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_p1', content: 'Done!' },
    ]);

    const whole = await fx.call('/v1/responses', { token: endpoint.token, body });
    expect(await whole.json()).toMatchObject({
      status: 'completed',
      output: [{ type: 'custom_tool_call', call_id: 'call_p3', name: 'apply_patch', input: patch }],
    });
  });
});
