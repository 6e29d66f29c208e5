import { describe, expect, it } from 'vitest';
import type { LlmResponse } from './llm/llm-types';
import { limitReached, StepBudget, type BudgetState } from './step-budget';
import { llmResponse } from '../../../test/support/llm-response';

function response(usd: number, known = true, prompt = 100, completion = 20): LlmResponse {
  return llmResponse({
    usage: { prompt, completion, cache_read: 7, cache_write: 3 },
    cost: { usd, known, source: known ? 'price_table' : 'unknown' },
    responseId: 'resp-1',
    latencyMs: 10,
  });
}

const fresh: BudgetState = {
  iterations: 0,
  iterationLimit: 3,
  budgetLimit: null,
  cost: 0,
  costKnown: true,
  promptTokens: 0,
  completionTokens: 0,
};

describe('limitReached', () => {
  it('stops at the iteration limit with the documented text', () => {
    expect(limitReached({ ...fresh, iterations: 2 })).toBeNull();
    expect(limitReached({ ...fresh, iterations: 3 })).toBe(
      'Agent reached maximum iteration. Current iteration: 3, max iteration: 3',
    );
  });

  it('stops at the budget while the cost is known', () => {
    const spent = { ...fresh, budgetLimit: 0.5, cost: 0.5049 };
    expect(limitReached({ ...spent, cost: 0.49 })).toBeNull();
    expect(limitReached(spent)).toBe(
      'Agent reached maximum budget for conversation. Current budget: 0.50, max budget: 0.50',
    );
    expect(limitReached({ ...spent, costKnown: false })).toBeNull();
  });
});

describe('StepBudget', () => {
  it('counts iterations up to the limit', () => {
    const budget = new StepBudget({ maxIterations: 2, maxBudgetPerTask: null });
    budget.countIteration();
    expect(budget.limitReached()).toBeNull();
    budget.countIteration();
    expect(budget.limitReached()).toMatch(/^Agent reached maximum iteration/);
  });

  it('adds cost and tokens, and stops at the budget', () => {
    const budget = new StepBudget({ maxIterations: 10, maxBudgetPerTask: 0.05 });
    expect(budget.account(response(0.03))).toBe(false);
    expect(budget.limitReached()).toBeNull();
    budget.account(response(0.03, true, 50, 5));
    expect(budget.snapshot()).toMatchObject({ cost: 0.06, promptTokens: 150, completionTokens: 25 });
    expect(budget.limitReached()).toMatch(/^Agent reached maximum budget/);
  });

  it('says once that a budget cannot be enforced when a price is unknown, and only with a budget', () => {
    const budget = new StepBudget({ maxIterations: 10, maxBudgetPerTask: 1 });
    expect(budget.account(response(0, false))).toBe(true);
    expect(budget.account(response(0, true))).toBe(false);
    expect(budget.snapshot().costKnown).toBe(false);
    const unlimited = new StepBudget({ maxIterations: 10, maxBudgetPerTask: null });
    expect(unlimited.account(response(0, false))).toBe(false);
  });

  it('grants another round of the limits from where the agent stopped', () => {
    const budget = new StepBudget({ maxIterations: 2, maxBudgetPerTask: 0.1 });
    budget.countIteration();
    budget.countIteration();
    budget.account(response(0.12));
    budget.extend();
    expect(budget.snapshot()).toMatchObject({ iterationLimit: 4, budgetLimit: 0.22 });
    expect(budget.limitReached()).toBeNull();
    const unlimited = new StepBudget({ maxIterations: 2, maxBudgetPerTask: null });
    unlimited.extend();
    expect(unlimited.snapshot().budgetLimit).toBeNull();
  });

  it('comes back from a saved state with exactly its counts and limits', () => {
    const saved = { ...fresh, iterations: 5, iterationLimit: 9, budgetLimit: 2, cost: 1.5, promptTokens: 10 };
    const budget = new StepBudget({ maxIterations: 100, maxBudgetPerTask: null });
    budget.restore({ ...saved, state: 'paused' } as BudgetState);
    expect(budget.snapshot()).toEqual(saved);
  });

  it('reports the totals and the response’s own usage as the events’ metrics', () => {
    const budget = new StepBudget({ maxIterations: 10, maxBudgetPerTask: 3 });
    const answer = response(0.25);
    budget.account(answer);
    expect(budget.metrics('openai/gpt-4o', answer)).toEqual({
      accumulatedCost: 0.25,
      maxBudgetPerTask: 3,
      costKnown: true,
      accumulatedTokenUsage: {
        model: 'openai/gpt-4o',
        promptTokens: 100,
        completionTokens: 20,
        cacheReadTokens: 7,
        cacheWriteTokens: 3,
        contextWindow: 0,
        perTurnTokens: 120,
        responseId: 'resp-1',
      },
    });
    expect(budget.metrics('openai/gpt-4o')).toMatchObject({
      accumulatedTokenUsage: { perTurnTokens: 0, responseId: '', cacheReadTokens: 0 },
    });
  });
});
