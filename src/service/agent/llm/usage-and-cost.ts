import type { LanguageModelV4Usage } from '@ai-sdk/provider';
import type { ModelRoute } from './model-routing';
import type { PriceTable } from './prices';

/** Token counts of one call. `prompt` includes the cached tokens read and written. */
export interface LlmUsage {
  prompt: number;
  completion: number;
  cache_read: number;
  cache_write: number;
  /** The provider reported no usage: counts are characters / 4. */
  estimated: boolean;
}

/** A call's cost in USD. `known: false` (with 0) when neither the provider nor a price knows it. */
export interface LlmCost {
  usd: number;
  known: boolean;
  source: 'provider' | 'price_table' | 'local' | 'unknown';
}

const CHARS_PER_TOKEN = 4;

/** Usage as the AI SDK provider reported it, or undefined when the provider sent none. */
export function reportedUsage(usage: LanguageModelV4Usage | undefined): LlmUsage | undefined {
  if (usage?.inputTokens.total === undefined && usage?.outputTokens.total === undefined) return undefined;
  return {
    prompt: usage.inputTokens.total ?? 0,
    completion: usage.outputTokens.total ?? 0,
    cache_read: usage.inputTokens.cacheRead ?? 0,
    cache_write: usage.inputTokens.cacheWrite ?? 0,
    estimated: false,
  };
}

export function estimatedUsage(promptChars: number, completionChars: number): LlmUsage {
  return {
    prompt: Math.ceil(promptChars / CHARS_PER_TOKEN),
    completion: Math.ceil(completionChars / CHARS_PER_TOKEN),
    cache_read: 0,
    cache_write: 0,
    estimated: true,
  };
}

/** A cost the provider reported: OpenRouter's `usage.cost`, or LiteLLM's `x-litellm-response-cost` header. */
export function providerReportedCost(
  rawUsage: unknown,
  headers: Record<string, string> | undefined,
): number | undefined {
  const cost = (rawUsage as { cost?: unknown } | undefined)?.cost;
  if (typeof cost === 'number' && Number.isFinite(cost) && cost >= 0) return cost;
  const header = headers?.['x-litellm-response-cost'];
  const value = header === undefined ? NaN : Number(header);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Cost of a call, first match (agent-behaviour §2.4): provider-reported, price table, local (0), else unknown. */
export function resolveCost(options: {
  route: ModelRoute;
  usage: LlmUsage;
  providerCostUsd: number | undefined;
  prices: PriceTable;
}): LlmCost {
  const { route, usage, providerCostUsd, prices } = options;
  if (providerCostUsd !== undefined) return { usd: providerCostUsd, known: true, source: 'provider' };
  const price = prices.priceOf(route.model);
  if (price) {
    const uncached = Math.max(0, usage.prompt - usage.cache_read - usage.cache_write);
    const usd =
      (uncached * price.input +
        usage.cache_read * price.cacheRead +
        usage.cache_write * price.cacheWrite +
        usage.completion * price.output) /
      1_000_000;
    return { usd, known: true, source: 'price_table' };
  }
  if (route.local) return { usd: 0, known: true, source: 'local' };
  return { usd: 0, known: false, source: 'unknown' };
}
