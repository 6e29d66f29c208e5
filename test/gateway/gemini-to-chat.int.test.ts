import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REAL_KEY, sseEvents, startGatewayFixture, type GatewayFixture } from './gateway-fixture';

/** Gemini CLI on an OpenAI-compatible model: Gemini generateContent in, Chat Completions out. */

let fx: GatewayFixture;

beforeAll(async () => {
  fx = await startGatewayFixture({ model: 'ollama/qwen2.5-coder' });
});
afterAll(async () => {
  await fx.close();
});

const TOOLS = [
  {
    functionDeclarations: [
      {
        name: 'run_shell_command',
        description: 'Run a command',
        parameters: { type: 'OBJECT', properties: { command: { type: 'STRING' } }, required: ['command'] },
      },
    ],
  },
];

describe('Gemini translated to an OpenAI-compatible model', () => {
  it('streamGenerateContent?alt=sse with x-goog-api-key: text chunks, then the call whole with the finish and usage', async () => {
    const { id, endpoint } = await fx.conversation();
    fx.llm.push({
      text: 'Checking the files.',
      toolCalls: [{ id: 'call_g1', name: 'run_shell_command', args: { command: 'ls -la' } }],
      usage: { input: 120, output: 15 },
    });
    const response = await fx.call('/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse', {
      headers: { 'x-goog-api-key': endpoint.token },
      body: {
        systemInstruction: { role: 'user', parts: [{ text: 'You are Gemini CLI.' }] },
        contents: [{ role: 'user', parts: [{ text: 'What is here?' }] }],
        tools: TOOLS,
        toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
        generationConfig: { temperature: 0, maxOutputTokens: 2048 },
      },
    });
    expect(response.status).toBe(200);
    const chunks = sseEvents(await response.text()).map((e) => e.data as Record<string, unknown>);
    const parts = chunks.flatMap(
      (c) => (c.candidates as { content: { parts: unknown[] } }[])[0]?.content.parts ?? [],
    );
    expect(
      parts
        .filter((p) => (p as { text?: string }).text !== undefined)
        .map((p) => (p as { text: string }).text)
        .join(''),
    ).toBe('Checking the files.');
    expect(chunks.at(-1)).toMatchObject({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { functionCall: { id: 'call_g1', name: 'run_shell_command', args: { command: 'ls -la' } } },
            ],
          },
          finishReason: 'STOP',
        },
      ],
      usageMetadata: { promptTokenCount: 120, candidatesTokenCount: 15, totalTokenCount: 135 },
    });
    const sent = fx.llm.calls.at(-1);
    expect(sent?.auth).toBe(`Bearer ${REAL_KEY}`);
    expect(sent?.body).toMatchObject({
      model: 'qwen2.5-coder',
      stream: true,
      max_tokens: 2048,
      temperature: 0,
      tool_choice: 'auto',
      messages: [
        { role: 'system', content: 'You are Gemini CLI.' },
        { role: 'user', content: 'What is here?' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'run_shell_command',
            parameters: {
              type: 'object',
              properties: { command: { type: 'string' } },
              required: ['command'],
            },
          },
        },
      ],
    });
    const view = await fx.service.api('GET', `/api/v1/app-conversations/${id}`);
    expect(view.json).toMatchObject({
      metrics: { accumulated_token_usage: { prompt_tokens: 120, completion_tokens: 15 } },
    });
  });

  it('generateContent with ?key= and a function response round trip', async () => {
    const { endpoint } = await fx.conversation();
    fx.llm.push({ text: 'There is a README.', usage: { input: 60, output: 6 } });
    const response = await fx.call(`/v1beta/models/gemini-2.5-pro:generateContent?key=${endpoint.token}`, {
      body: {
        contents: [
          { role: 'user', parts: [{ text: 'What is here?' }] },
          {
            role: 'model',
            parts: [{ functionCall: { name: 'run_shell_command', args: { command: 'ls' } } }],
          },
          {
            role: 'user',
            parts: [{ functionResponse: { name: 'run_shell_command', response: { output: 'README.md' } } }],
          },
        ],
        tools: TOOLS,
      },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      candidates: [
        { content: { role: 'model', parts: [{ text: 'There is a README.' }] }, finishReason: 'STOP' },
      ],
      usageMetadata: { promptTokenCount: 60, candidatesTokenCount: 6 },
    });
    const messages = fx.llm.calls.at(-1)?.body?.messages as Record<string, unknown>[];
    const callId = (messages[1]?.tool_calls as { id: string }[])[0]?.id;
    expect(callId).toBeTruthy();
    expect(messages).toEqual([
      { role: 'user', content: 'What is here?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: callId,
            type: 'function',
            function: { name: 'run_shell_command', arguments: '{"command":"ls"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: callId, content: '{"output":"README.md"}' },
    ]);
  });

  it('lists the conversation model as Gemini lists models', async () => {
    const { endpoint } = await fx.conversation();
    const response = await fx.call('/v1beta/models', { headers: { 'x-goog-api-key': endpoint.token } });
    expect(await response.json()).toMatchObject({ models: [{ name: 'models/qwen2.5-coder' }] });
  });

  it('a JSON answer asked with a schema is asked of the model as a response_format', async () => {
    const { endpoint } = await fx.conversation();
    fx.llm.push({ text: '{"next_speaker":"user"}' });
    const schema = { type: 'object', properties: { next_speaker: { type: 'string' } } };
    const response = await fx.call('/v1beta/models/gemini-2.5-flash:generateContent', {
      headers: { 'x-goog-api-key': endpoint.token },
      body: {
        contents: [{ role: 'user', parts: [{ text: 'Who speaks next?' }] }],
        generationConfig: { responseMimeType: 'application/json', responseJsonSchema: schema },
      },
    });
    expect(response.status).toBe(200);
    expect(fx.llm.calls.at(-1)?.body?.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'response', schema },
    });
  });

  it('streamGenerateContent without alt=sse answers one JSON array of chunks', async () => {
    const { endpoint } = await fx.conversation();
    fx.llm.push({ text: 'As an array.', usage: { input: 9, output: 3 } });
    const response = await fx.call('/v1beta/models/gemini-2.5-pro:streamGenerateContent', {
      headers: { 'x-goog-api-key': endpoint.token },
      body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
    });
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toMatchObject([
      {
        candidates: [{ content: { parts: [{ text: 'As an array.' }] }, finishReason: 'STOP' }],
        usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 3 },
      },
    ]);
    expect(fx.llm.calls.at(-1)?.body?.stream).toBe(true);
  });

  it("a reasoning model's thoughts come as thought parts, and are not sent back", async () => {
    const { endpoint } = await fx.conversation();
    fx.llm.push({ reasoning: 'Thinking hard.', text: 'Done.' });
    const response = await fx.call('/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse', {
      headers: { 'x-goog-api-key': endpoint.token },
      body: {
        contents: [
          { role: 'user', parts: [{ text: 'hi' }] },
          {
            role: 'model',
            parts: [{ text: 'Earlier thought.', thought: true }, { text: 'Earlier answer.' }],
          },
          { role: 'user', parts: [{ text: 'again' }] },
        ],
      },
    });
    const parts = sseEvents(await response.text()).flatMap(
      (e) =>
        (e.data as { candidates: { content: { parts: unknown[] } }[] }).candidates[0]?.content.parts ?? [],
    );
    expect(parts.filter((p) => (p as { thought?: boolean }).thought)).toEqual([
      { text: 'Thinking ', thought: true },
      { text: 'hard.', thought: true },
    ]);
    expect(fx.llm.calls.at(-1)?.body?.messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Earlier answer.' },
      { role: 'user', content: 'again' },
    ]);
  });
});
