import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayBudget } from '../../src/service/gateway/gateway-budget';
import type { GatewayStatus } from '../../src/service/gateway/model-gateway';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

/** The conversation's budget (max_budget_per_task) applies to the calls of the agents in its sandbox. */

let fx: GatewayFixture;

beforeAll(async () => {
  fx = await startGatewayFixture({
    model: 'anthropic/claude-sonnet-4-5',
    settings: { max_budget_per_task: 0.001 },
  });
});
afterAll(async () => {
  await fx.close();
});

const MESSAGE = { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] };

describe('the budget of a conversation', () => {
  it('once spent, every further call is refused in the client format, and the conversation is told', async () => {
    const { id, endpoint } = await fx.conversation();
    const other = await fx.conversation();
    const statuses: GatewayStatus[] = [];
    const unsubscribe = fx.service.service.gateway.onStatus((status) => statuses.push(status));
    // 1000 input and 100 output tokens at $3/$15 per 1M: $0.0045, over the $0.001 budget.
    fx.llm.push({ text: 'Expensive.', usage: { input: 1000, output: 100 } }, { text: 'For the other one.' });

    const first = await fx.call('/v1/messages', { headers: { 'x-api-key': endpoint.token }, body: MESSAGE });
    expect(first.status).toBe(200);
    await first.text();

    const refused = await fx.call('/v1/messages', {
      headers: { 'x-api-key': endpoint.token },
      body: MESSAGE,
    });
    expect(refused.status).toBe(402);
    const body = (await refused.json()) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe('error');
    expect(body.error.type).toBe('billing_error');
    expect(body.error.message).toContain('reached its budget: $0.0045 spent of $0.0010');

    const asGemini = await fx.call('/v1beta/models/x:generateContent', {
      headers: { 'x-goog-api-key': endpoint.token },
      body: { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] },
    });
    expect(asGemini.status).toBe(402);
    expect(await asGemini.json()).toMatchObject({ error: { code: 402, status: 'FAILED_PRECONDITION' } });

    const asChat = await fx.call('/v1/chat/completions', { token: endpoint.token, body: { messages: [] } });
    expect(await asChat.json()).toMatchObject({ error: { code: 'budget_exceeded' } });

    expect(fx.llm.calls).toHaveLength(1);
    expect(statuses).toEqual([
      expect.objectContaining({ conversationId: id, type: 'error', id: 'STATUS$ERROR' }),
      expect.objectContaining({ conversationId: id }),
      expect.objectContaining({ conversationId: id }),
    ]);
    const view = await fx.service.api('GET', `/api/v1/app-conversations/${id}`);
    expect(view.json).toMatchObject({ metrics: { max_budget_per_task: 0.001, cost_known: true } });
    expect((view.json as { metrics: { accumulated_cost: number } }).metrics.accumulated_cost).toBeCloseTo(
      0.0045,
      10,
    );

    // Another conversation has a budget of its own.
    const second = await fx.call('/v1/messages', {
      headers: { 'x-api-key': other.endpoint.token },
      body: MESSAGE,
    });
    expect(second.status).toBe(200);
    unsubscribe();
  });
});

describe('GatewayBudget', () => {
  it('tells once that a budget is no longer enforced when a price is unknown', async () => {
    const { id } = await fx.conversation();
    const budget = new GatewayBudget(fx.service.service.context.db, () => ({
      maxBudgetPerTask: 5,
      maxIterations: null,
    }));
    const usage = { prompt: 10, completion: 2, cache_read: 0, cache_write: 0, estimated: false };
    expect(budget.account(id, usage, { usd: 0.01, known: true, source: 'price_table' })).toBe(false);
    expect(budget.account(id, usage, { usd: 0, known: false, source: 'unknown' })).toBe(true);
    expect(budget.account(id, usage, { usd: 0, known: false, source: 'unknown' })).toBe(false);
    // With an unknown cost the budget cannot be enforced: nothing is refused.
    expect(budget.refusal(id)).toBeNull();
    const view = await fx.service.api('GET', `/api/v1/app-conversations/${id}`);
    expect(view.json).toMatchObject({
      metrics: { cost_known: false, max_budget_per_task: 5, accumulated_token_usage: { prompt_tokens: 30 } },
    });
  });
});
