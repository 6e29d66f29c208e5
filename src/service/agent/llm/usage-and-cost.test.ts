import { describe, expect, it } from 'vitest';
import { resolveModelRoute } from './model-routing';
import { PriceTable } from './prices';
import {
  estimatedUsage,
  providerReportedCost,
  reportedUsage,
  resolveCost,
  type LlmUsage,
} from './usage-and-cost';

const usage = (prompt: number, completion: number, cacheRead = 0, cacheWrite = 0): LlmUsage => ({
  prompt,
  completion,
  cache_read: cacheRead,
  cache_write: cacheWrite,
  estimated: false,
});

describe('resolveCost', () => {
  const prices = new PriceTable();

  it('prefers a provider-reported cost', () => {
    const route = resolveModelRoute('openrouter/anthropic/claude-sonnet-4.5');
    expect(resolveCost({ route, usage: usage(1000, 100), providerCostUsd: 0.5, prices })).toEqual({
      usd: 0.5,
      known: true,
      source: 'provider',
    });
  });

  it('prices uncached, cache-read, cache-write and output tokens separately', () => {
    const route = resolveModelRoute('anthropic/claude-haiku-4-5');
    const cost = resolveCost({
      route,
      usage: usage(1_000_000, 1_000_000, 400_000, 100_000),
      providerCostUsd: undefined,
      prices,
    });
    expect(cost.source).toBe('price_table');
    expect(cost.usd).toBeCloseTo(0.5 * 1 + 0.4 * 0.1 + 0.1 * 1.25 + 5, 10);
  });

  it('counts local models as free and unpriced remote ones as unknown', () => {
    expect(
      resolveCost({
        route: resolveModelRoute('ollama/qwen2.5-coder'),
        usage: usage(10, 1),
        providerCostUsd: undefined,
        prices,
      }),
    ).toEqual({
      usd: 0,
      known: true,
      source: 'local',
    });
    expect(
      resolveCost({
        route: resolveModelRoute('groq/some-new-model'),
        usage: usage(10, 1),
        providerCostUsd: undefined,
        prices,
      }),
    ).toEqual({
      usd: 0,
      known: false,
      source: 'unknown',
    });
  });

  it('reads OpenRouter usage.cost and the LiteLLM cost header', () => {
    expect(providerReportedCost({ cost: 0.01 }, undefined)).toBe(0.01);
    expect(providerReportedCost({}, { 'x-litellm-response-cost': '0.002' })).toBe(0.002);
    expect(providerReportedCost({ prompt_tokens: 1 }, { 'x-litellm-response-cost': 'n/a' })).toBeUndefined();
  });

  it('estimates tokens at 4 characters each', () => {
    expect(estimatedUsage(401, 8)).toEqual({
      prompt: 101,
      completion: 2,
      cache_read: 0,
      cache_write: 0,
      estimated: true,
    });
  });
});

describe('reportedUsage', () => {
  it("reads the provider's usage including cache tokens, and nothing when the provider sent none", () => {
    expect(
      reportedUsage({
        inputTokens: { total: 120, noCache: 20, cacheRead: 90, cacheWrite: 10 },
        outputTokens: { total: 7, text: 7, reasoning: undefined },
      }),
    ).toEqual({ prompt: 120, completion: 7, cache_read: 90, cache_write: 10, estimated: false });
    expect(
      reportedUsage({
        inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: undefined, text: undefined, reasoning: undefined },
      }),
    ).toBeUndefined();
  });
});
