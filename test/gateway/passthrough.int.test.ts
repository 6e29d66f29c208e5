import { createOpenAI } from '@ai-sdk/openai';
import { streamText } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { createLlmClient } from '../../src/service/agent/llm/llm-client';
import { freePort } from '../support/ports';
import { faults } from '../support/scripted-llm';
import { instantTiming } from '../support/scripted-llm/instant-timing';
import { REAL_KEY, startGatewayFixture, type GatewayFixture } from './gateway-fixture';

/** The same wire format in and out: the call is forwarded as is, with the real key in place of the token. */

let fx: GatewayFixture | undefined;

afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

async function metricsOf(id: string) {
  const view = await fx?.service.api('GET', `/api/v1/app-conversations/${id}`);
  return (view?.json as { metrics: Record<string, unknown> | null }).metrics;
}

describe('passthrough', () => {
  it('Anthropic Messages to an Anthropic model, streamed: the real key, the protocol headers, cache usage priced', async () => {
    fx = await startGatewayFixture({ model: 'anthropic/claude-sonnet-4-5' });
    const { id, endpoint } = await fx.conversation();
    fx.llm.push({
      text: 'Reading it.',
      toolCalls: [{ id: 'toolu_1', name: 'Read', args: { path: 'README.md' } }],
      usage: { input: 100, output: 50, cacheRead: 2000, cacheWrite: 300 },
    });
    const client = createLlmClient({
      model: 'anthropic/claude-opus-4-1',
      apiKey: endpoint.token,
      baseUrl: `${endpoint.anthropicBaseUrl}/v1`,
      timing: instantTiming().timing,
    });
    const reply = await client.complete({
      system: 'You are Claude Code.',
      messages: [{ role: 'user', content: 'Read the README.' }],
      tools: [
        {
          name: 'Read',
          description: 'Read a file',
          parameters: { type: 'object', properties: { path: { type: 'string' } } },
        },
      ],
    });
    expect(reply.text).toBe('Reading it.');
    expect(reply.toolCalls).toEqual([
      expect.objectContaining({ id: 'toolu_1', name: 'Read', args: { path: 'README.md' } }),
    ]);
    expect(reply.usage).toMatchObject({ prompt: 2400, completion: 50, cache_read: 2000, cache_write: 300 });

    const sent = fx.llm.calls.at(-1);
    expect(sent?.path).toBe('/v1/messages');
    expect(sent?.headers['x-api-key']).toBe(REAL_KEY);
    expect(sent?.headers.authorization).toBeUndefined();
    expect(sent?.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent?.body).toMatchObject({ model: 'claude-sonnet-4-5', stream: true });
    expect(sent?.rawBody).not.toContain(endpoint.token);

    // claude-sonnet-4-5: $3 input, $15 output, $0.30 cache read, $3.75 cache write per 1M tokens.
    const metrics = await metricsOf(id);
    expect(metrics).toMatchObject({
      accumulated_token_usage: { prompt_tokens: 2400, completion_tokens: 50 },
      cost_known: true,
    });
    expect(metrics?.accumulated_cost).toBeCloseTo(
      (100 * 3 + 2000 * 0.3 + 300 * 3.75 + 50 * 15) / 1_000_000,
      10,
    );
  });

  it('Chat Completions to an OpenAI-compatible model, streamed: usage asked for and counted', async () => {
    fx = await startGatewayFixture({ model: 'openai/gpt-4o' });
    const { id, endpoint } = await fx.conversation();
    fx.llm.push({ text: 'Hello from chat.', usage: { input: 40, output: 4 } });
    const client = createLlmClient({
      model: 'openai/gpt-4o',
      apiKey: endpoint.token,
      baseUrl: endpoint.openaiBaseUrl,
      timing: instantTiming().timing,
    });
    const reply = await client.complete({ system: 'Be brief.', messages: [{ role: 'user', content: 'Hi' }] });
    expect(reply.text).toBe('Hello from chat.');
    const sent = fx.llm.calls.at(-1);
    expect(sent?.auth).toBe(`Bearer ${REAL_KEY}`);
    expect(sent?.body).toMatchObject({
      model: 'gpt-4o',
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(await metricsOf(id)).toMatchObject({
      accumulated_token_usage: { prompt_tokens: 40, completion_tokens: 4 },
    });
  });

  it('Responses to an OpenAI model: the provider speaks Responses, the events pass as they are', async () => {
    fx = await startGatewayFixture({ model: 'openai/gpt-5' });
    const { id, endpoint } = await fx.conversation();
    fx.llm.push({ text: 'Responses all the way.', usage: { input: 70, output: 6, cacheRead: 30 } });
    const responses = createOpenAI({ baseURL: endpoint.openaiBaseUrl, apiKey: endpoint.token }).responses(
      'gpt-5',
    );
    const result = streamText({ model: responses, prompt: 'Go.' });
    expect(await result.text).toBe('Responses all the way.');
    const sent = fx.llm.calls.at(-1);
    expect(sent?.path).toBe('/v1/responses');
    expect(sent?.auth).toBe(`Bearer ${REAL_KEY}`);
    expect(await metricsOf(id)).toMatchObject({
      accumulated_token_usage: { prompt_tokens: 100, completion_tokens: 6 },
    });
  });

  it('a provider error that echoes the key is relayed with the key hidden, and nothing is counted', async () => {
    fx = await startGatewayFixture({ model: 'anthropic/claude-sonnet-4-5' });
    const { id, endpoint } = await fx.conversation();
    fx.llm.push(faults.status(401, `invalid x-api-key: ${REAL_KEY}`));
    const response = await fx.call('/v1/messages', {
      headers: { 'x-api-key': endpoint.token },
      body: { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(response.status).toBe(401);
    const text = await response.text();
    expect(text).not.toContain(REAL_KEY);
    expect(JSON.parse(text)).toEqual({
      type: 'error',
      error: { type: 'authentication_error', message: 'invalid x-api-key: <secret_hidden>' },
    });
    expect(await metricsOf(id)).toBeNull();
  });

  it('a translated call relays a provider error in the client format, the key hidden', async () => {
    fx = await startGatewayFixture({ model: 'openai/qwen' });
    const { endpoint } = await fx.conversation();
    fx.llm.push(faults.status(429, `slow down, ${REAL_KEY}`, { retryAfter: 7 }));
    const response = await fx.call('/v1/messages', {
      headers: { 'x-api-key': endpoint.token },
      body: { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'slow down, <secret_hidden>' },
    });
  });

  it('an agent whose API is not translated to an Anthropic model is told what to choose', async () => {
    fx = await startGatewayFixture({ model: 'anthropic/claude-sonnet-4-5' });
    const { endpoint } = await fx.conversation();
    const response = await fx.call('/v1/chat/completions', {
      token: endpoint.token,
      body: { model: 'x', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
      'choose an OpenAI-compatible model for this agent',
    );
    expect(fx.llm.calls).toHaveLength(0);
  });

  it('a provider that cannot be reached is a 502 in the client format, naming it without credentials', async () => {
    const closed = await freePort();
    fx = await startGatewayFixture({
      model: 'anthropic/claude-sonnet-4-5',
      settings: { llm_base_url: `http://user:secret-in-url@127.0.0.1:${closed}/v1?token=abc` },
    });
    const { endpoint } = await fx.conversation();
    for (const path of ['/v1/messages', '/v1/messages/count_tokens']) {
      const response = await fx.call(path, {
        headers: { 'x-api-key': endpoint.token },
        body: { model: 'c', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] },
      });
      expect(response.status).toBe(502);
      const text = await response.text();
      expect(JSON.parse(text)).toMatchObject({ type: 'error', error: { type: 'api_error' } });
      expect(text).toContain(`cannot be reached`);
      expect(text).not.toContain('secret-in-url');
      expect(text).not.toContain('token=abc');
    }
  });
});
