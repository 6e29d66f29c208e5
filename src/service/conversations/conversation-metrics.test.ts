import { describe, expect, it } from 'vitest';
import type { BudgetState } from '../agent/step-budget';
import { metricsSnapshot } from './conversation-metrics';

const budget: BudgetState = {
  iterations: 3,
  iterationLimit: 500,
  budgetLimit: 5,
  cost: 0.0123,
  costKnown: true,
  promptTokens: 4200,
  completionTokens: 310,
};

describe('metricsSnapshot', () => {
  it('maps the budget to the OpenHands MetricsSnapshot', () => {
    expect(metricsSnapshot('openai/gpt-4o', budget)).toEqual({
      model_name: 'openai/gpt-4o',
      accumulated_cost: 0.0123,
      max_budget_per_task: 5,
      accumulated_token_usage: {
        model: 'openai/gpt-4o',
        prompt_tokens: 4200,
        completion_tokens: 310,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        reasoning_tokens: 0,
        context_window: 0,
        per_turn_token: 0,
        response_id: '',
      },
      cost_known: true,
    });
  });

  it('says when a price was unknown, keeping the cost of the priced calls', () => {
    expect(metricsSnapshot('local/model', { ...budget, cost: 0.01, costKnown: false })).toMatchObject({
      accumulated_cost: 0.01,
      cost_known: false,
    });
  });

  it('is null before any model call was counted', () => {
    expect(metricsSnapshot('openai/gpt-4o', null)).toBeNull();
    const fresh = { ...budget, iterations: 0, cost: 0, promptTokens: 0, completionTokens: 0 };
    expect(metricsSnapshot('openai/gpt-4o', fresh)).toBeNull();
  });
});
