import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { faults, startScriptedLlm, type ScriptedLlm } from '.';

let llm: ScriptedLlm;

beforeEach(async () => {
  llm = await startScriptedLlm();
});

afterEach(async () => {
  await llm.close();
});

function post(path: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) {
  return fetch(`${llm.origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal,
  });
}

/** The `data:` payloads of a server-sent event stream, with their event names. */
async function events(response: Response): Promise<{ event?: string; data: string }[]> {
  const text = await response.text();
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim())
    .map((block) => {
      const lines = block.split(/\r?\n/);
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
      const data = lines.find((l) => l.startsWith('data: '))?.slice(6) ?? '';
      return event === undefined ? { data } : { event, data };
    });
}

describe('scripted LLM, OpenAI Chat Completions', () => {
  it('answers without streaming, with several tool calls and usage', async () => {
    llm.push({
      text: 'Two calls.',
      toolCalls: [
        { name: 'a', args: { x: 1 } },
        { id: 'call_b', name: 'b', args: '{"broken"' },
      ],
      usage: { input: 10, output: 3, cacheRead: 5 },
    });
    const response = await post(
      '/v1/chat/completions',
      { model: 'gpt-4o', messages: [] },
      { authorization: 'Bearer k1' },
    );
    const body = (await response.json()) as Record<string, unknown>;

    expect(body).toMatchObject({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'gpt-4o',
      choices: [
        {
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: 'Two calls.',
            tool_calls: [
              { id: 'call_1_1', type: 'function', function: { name: 'a', arguments: '{"x":1}' } },
              { id: 'call_b', type: 'function', function: { name: 'b', arguments: '{"broken"' } },
            ],
          },
        },
      ],
      usage: { prompt_tokens: 15, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 5 } },
    });
    expect(llm.requests[0]).toMatchObject({
      api: 'openai',
      auth: 'Bearer k1',
      stream: false,
      body: { model: 'gpt-4o' },
    });
  });

  it('streams deltas and sends usage in a last chunk only when asked to', async () => {
    llm.push({ text: 'Hello there', toolCalls: [{ name: 'a', args: { x: 1 } }] }, { text: 'again' });

    const withUsage = await events(
      await post('/v1/chat/completions', {
        model: 'm',
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    expect(withUsage.at(-1)?.data).toBe('[DONE]');
    const chunks = withUsage
      .slice(0, -1)
      .map((e) => JSON.parse(e.data) as { choices: unknown[]; usage?: unknown });
    const content = chunks.map(
      (c) => (c.choices[0] as { delta?: { content?: string } } | undefined)?.delta?.content ?? '',
    );
    expect(content.join('')).toBe('Hello there');
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 100, completion_tokens: 20 },
    });
    expect(JSON.stringify(chunks)).toContain('"finish_reason":"tool_calls"');

    const withoutUsage = await events(await post('/v1/chat/completions', { model: 'm', stream: true }));
    expect(withoutUsage.some((e) => e.data.includes('"usage"'))).toBe(false);
  });

  it('sends HTTP faults in the API error format with Retry-After', async () => {
    llm.push(faults.rateLimited(7));
    const response = await post('/v1/chat/completions', { model: 'm' });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(await response.json()).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
  });

  it('plays a step computed from the request', async () => {
    llm.push((request) => ({ text: `You said: ${JSON.stringify(request.body?.messages)}` }));
    const response = await post('/v1/chat/completions', {
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
    });
    const body = (await response.json()) as { choices: { message: { content: string } }[] };
    expect(body.choices[0]?.message.content).toBe('You said: [{"role":"user","content":"hi"}]');
  });

  it('answers 500 when the script has run out', async () => {
    const response = await post('/v1/chat/completions', { model: 'm' });
    expect(response.status).toBe(500);
    expect(await response.text()).toContain('no step left for call 1');
  });
});

describe('scripted LLM, Anthropic Messages', () => {
  it('streams the real event sequence with text and tool_use blocks and cache usage', async () => {
    llm.push({
      text: 'Checking.',
      toolCalls: [{ id: 'toolu_x', name: 'view', args: { path: '/a' } }],
      usage: { input: 50, output: 9, cacheRead: 400, cacheWrite: 30 },
    });
    const stream = await events(
      await post('/v1/messages', { model: 'claude', stream: true }, { 'x-api-key': 'k2' }),
    );

    const names = stream.map((e) => e.event);
    expect(names[0]).toBe('message_start');
    expect(names.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(names.filter((n) => n === 'content_block_start')).toHaveLength(2);
    expect(names.filter((n) => n === 'content_block_stop')).toHaveLength(2);
    const data = stream.map((e) => JSON.parse(e.data) as Record<string, unknown>);
    expect(data[0]).toMatchObject({
      message: { usage: { input_tokens: 50, cache_read_input_tokens: 400, cache_creation_input_tokens: 30 } },
    });
    const deltas = data
      .filter((d) => d.type === 'content_block_delta')
      .map((d) => d.delta as Record<string, string>);
    expect(
      deltas
        .filter((d) => d.type === 'text_delta')
        .map((d) => d.text)
        .join(''),
    ).toBe('Checking.');
    expect(
      deltas
        .filter((d) => d.type === 'input_json_delta')
        .map((d) => d.partial_json)
        .join(''),
    ).toBe('{"path":"/a"}');
    expect(data.at(-2)).toMatchObject({ delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } });
    expect(llm.requests[0]?.auth).toBe('k2');
  });

  it('answers without streaming', async () => {
    llm.push({ text: 'Plain.', toolCalls: [{ name: 'finish', args: { message: 'ok' } }] });
    const body = await (await post('/v1/messages', { model: 'claude' })).json();
    expect(body).toMatchObject({
      id: 'msg_1',
      type: 'message',
      content: [
        { type: 'text', text: 'Plain.' },
        { type: 'tool_use', id: 'toolu_1_1', name: 'finish', input: { message: 'ok' } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 100, output_tokens: 20 },
    });
  });

  it('sends errors in the Anthropic format', async () => {
    llm.push(faults.serverError(529));
    const response = await post('/v1/messages', { model: 'claude' });
    expect(response.status).toBe(529);
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
  });
});

describe('scripted LLM, connection faults and listings', () => {
  it('records that a client closed a hanging request', async () => {
    llm.push(faults.hang());
    const controller = new AbortController();
    const pending = post('/v1/chat/completions', { model: 'm' }, {}, controller.signal).catch(
      (e: unknown) => e,
    );
    await llm.waitForCalls(1);
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    await expect.poll(() => llm.calls[0]?.clientClosed).toBe(true);
  });

  it('drops a stream after its first events', async () => {
    llm.push(faults.dropStream(2, { text: 'one two three four' }));
    const response = await post('/v1/chat/completions', { model: 'm', stream: true });
    await expect(response.text()).rejects.toThrow();
  });

  it('serves malformed JSON', async () => {
    llm.push(faults.malformedJson());
    const response = await post('/v1/chat/completions', { model: 'm' });
    expect(response.status).toBe(200);
    await expect(response.json()).rejects.toThrow();
  });

  it('lists models for /v1/models and Ollama /api/tags without using steps', async () => {
    await llm.close();
    llm = await startScriptedLlm([], { models: ['qwen2.5-coder:latest', 'devstral'] });
    const models = await (await fetch(`${llm.baseUrl}/models`)).json();
    expect(models).toMatchObject({
      object: 'list',
      data: [{ id: 'qwen2.5-coder:latest' }, { id: 'devstral' }],
    });
    const tags = await (await fetch(`${llm.origin}/api/tags`)).json();
    expect(tags).toMatchObject({ models: [{ name: 'qwen2.5-coder:latest' }, { name: 'devstral' }] });
    expect(llm.calls).toHaveLength(0);
  });
});

describe('scripted LLM, OpenAI Responses', () => {
  it('streams the Responses events of a text and a tool call, with the usage in response.completed', async () => {
    llm.push({
      text: 'Hi there',
      toolCalls: [{ id: 'call_x', name: 'shell', args: { command: 'ls' } }],
      usage: { input: 8, output: 2, cacheRead: 4 },
    });
    const response = await post(
      '/v1/responses',
      { model: 'gpt-5', stream: true, input: 'hi' },
      { authorization: 'Bearer k1' },
    );
    const received = await events(response);
    expect(received.map((e) => e.event)).toEqual([
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
    const last = JSON.parse(received.at(-1)?.data ?? '{}') as Record<string, unknown>;
    expect(last).toMatchObject({
      type: 'response.completed',
      response: {
        status: 'completed',
        model: 'gpt-5',
        output: [
          { type: 'message', content: [{ type: 'output_text', text: 'Hi there' }] },
          { type: 'function_call', call_id: 'call_x', name: 'shell', arguments: '{"command":"ls"}' },
        ],
        usage: { input_tokens: 12, input_tokens_details: { cached_tokens: 4 }, output_tokens: 2 },
      },
    });
    expect(llm.calls[0]).toMatchObject({ api: 'responses', auth: 'Bearer k1', stream: true });
  });

  it('answers without streaming, and errors in the OpenAI format', async () => {
    llm.push({ text: 'Whole.' }, faults.rateLimited(3));
    const whole = await post('/v1/responses', { model: 'gpt-5', input: 'hi' });
    expect(await whole.json()).toMatchObject({
      object: 'response',
      status: 'completed',
      output: [{ type: 'message' }],
    });
    const limited = await post('/v1/responses', { model: 'gpt-5', input: 'hi' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(await limited.json()).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
  });
});

describe('scripted LLM, Gemini', () => {
  it('streams chunks per text piece with alt=sse, the call whole in the last one with the usage', async () => {
    llm.push({
      text: 'Let me see',
      toolCalls: [{ name: 'run_shell_command', args: { command: 'ls' } }],
      usage: { input: 20, output: 4 },
    });
    const response = await post(
      '/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
      { contents: [] },
      { 'x-goog-api-key': 'g1' },
    );
    const chunks = (await events(response)).map((e) => JSON.parse(e.data) as Record<string, unknown>);
    expect(chunks).toHaveLength(4);
    expect(chunks[0]).toEqual({
      candidates: [{ content: { role: 'model', parts: [{ text: 'Let ' }] }, index: 0 }],
      modelVersion: 'gemini-2.5-pro',
      responseId: 'gemini-1',
    });
    expect(chunks[3]).toMatchObject({
      candidates: [
        {
          content: { parts: [{ functionCall: { name: 'run_shell_command', args: { command: 'ls' } } }] },
          finishReason: 'STOP',
        },
      ],
      usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 4, totalTokenCount: 24 },
    });
    expect(llm.calls[0]).toMatchObject({ api: 'gemini', auth: 'g1', stream: true });
  });

  it('answers generateContent whole (key in the query), and errors in the Google format', async () => {
    llm.push({ text: 'Whole.' }, faults.unauthorized());
    const whole = await post('/v1beta/models/gemini-2.5-flash:generateContent?key=g2', { contents: [] });
    expect(await whole.json()).toMatchObject({
      candidates: [{ content: { role: 'model', parts: [{ text: 'Whole.' }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20 },
    });
    expect(llm.calls[0]).toMatchObject({ auth: 'g2', stream: false });
    const refused = await post('/v1beta/models/gemini-2.5-flash:generateContent', { contents: [] });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({
      error: { code: 401, message: 'Incorrect API key provided', status: 'UNAUTHENTICATED' },
    });
  });
});
