import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_TOKEN_PREFIX, GatewayTokens } from '../../src/service/gateway/gateway-tokens';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

/** A token names its conversation: nothing in a request can point a call at another one. */

describe('GatewayTokens', () => {
  it('issues one random token per conversation, checks it, and forgets it on revoke', () => {
    const tokens = new GatewayTokens();
    const a = tokens.issue('a');
    const b = tokens.issue('b');
    expect(a.startsWith(GATEWAY_TOKEN_PREFIX)).toBe(true);
    // 32 random bytes in base64url: 43 characters after the prefix.
    expect(a.length - GATEWAY_TOKEN_PREFIX.length).toBe(43);
    expect(a).not.toBe(b);
    expect(tokens.issue('a')).toBe(a);
    expect(tokens.check(a)).toBe('a');
    expect(tokens.check(b)).toBe('b');
    expect(tokens.check(`${a}x`)).toBeNull();
    expect(tokens.check(a.slice(0, -1))).toBeNull();
    expect(tokens.check(undefined)).toBeNull();
    tokens.revoke('a');
    expect(tokens.check(a)).toBeNull();
    expect(tokens.check(b)).toBe('b');
    expect(tokens.issue('a')).not.toBe(a);
  });
});

describe('the gateway and conversations', () => {
  let fx: GatewayFixture;

  beforeAll(async () => {
    fx = await startGatewayFixture({ model: 'openai/gpt-4o' });
  });
  afterAll(async () => {
    await fx.close();
  });

  const tokensOf = async (id: string) => {
    const view = await fx.service.api('GET', `/api/v1/app-conversations/${id}`);
    return (view.json as { metrics: { accumulated_token_usage: { prompt_tokens: number } } | null }).metrics;
  };

  it("a call is counted into the token's conversation, whatever conversation the request names", async () => {
    const a = await fx.conversation();
    const b = await fx.conversation();
    fx.llm.push({ text: 'for A', usage: { input: 11, output: 1 } });
    const response = await fx.call(`/v1/chat/completions?conversation_id=${b.id}`, {
      token: a.endpoint.token,
      headers: { 'x-conversation-id': b.id, 'x-dockhand-conversation': b.id },
      body: {
        model: b.id,
        messages: [{ role: 'user', content: 'hi' }],
        metadata: { conversation_id: b.id },
        user: b.id,
      },
    });
    expect(response.status).toBe(200);
    await response.text();
    expect(await tokensOf(a.id)).toMatchObject({ accumulated_token_usage: { prompt_tokens: 11 } });
    expect(await tokensOf(b.id)).toBeNull();
  });

  it('two credentials of different conversations in one request are refused', async () => {
    const a = await fx.conversation();
    const b = await fx.conversation();
    const calls = fx.llm.calls.length;
    const response = await fx.call('/v1/messages', {
      token: a.endpoint.token,
      headers: { 'x-api-key': b.endpoint.token },
      body: { model: 'x', max_tokens: 1, messages: [] },
    });
    expect(response.status).toBe(401);
    expect(fx.llm.calls.length).toBe(calls);
  });

  it('the token of a deleted conversation is refused', async () => {
    const a = await fx.conversation();
    fx.llm.push({ text: 'before' });
    const before = await fx.call('/v1/chat/completions', {
      token: a.endpoint.token,
      body: { messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(before.status).toBe(200);
    await before.text();
    const deleted = await fx.service.api('DELETE', `/api/conversations/${a.id}`);
    expect(deleted.status).toBe(200);
    const calls = fx.llm.calls.length;
    const after = await fx.call('/v1/chat/completions', {
      token: a.endpoint.token,
      body: { messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(after.status).toBe(401);
    expect(await after.json()).toMatchObject({ error: { code: 'invalid_api_key' } });
    expect(fx.llm.calls.length).toBe(calls);
    expect(fx.service.service.gateway.tokens.check(a.endpoint.token)).toBeNull();
  });

  it('endpointFor builds each client base URL on the address the sandbox reaches the gateway at', async () => {
    const a = await fx.conversation();
    const endpoint = fx.service.service.gateway.endpointFor(a.id, 'http://127.0.0.1:4555/');
    expect(endpoint).toEqual({
      token: a.endpoint.token,
      anthropicBaseUrl: 'http://127.0.0.1:4555',
      openaiBaseUrl: 'http://127.0.0.1:4555/v1',
      geminiBaseUrl: 'http://127.0.0.1:4555',
    });
  });
});
