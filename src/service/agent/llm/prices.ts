import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { lookupModel, modelKey } from './model-names';

/** USD per 1M tokens. Cache reads and writes are part of the prompt and priced instead of `input`. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

function price(input: number, output: number, cacheRead = input, cacheWrite = input): ModelPrice {
  return { input, output, cacheRead, cacheWrite };
}

/**
 * List prices of current models. OpenAI, DeepSeek and Gemini charge no cache-write surcharge, so a
 * written token costs an input token.
 */
const SHIPPED_PRICES: Record<string, ModelPrice> = {
  'claude-opus-4-5': price(5, 25, 0.5, 6.25),
  'claude-opus-4-1': price(15, 75, 1.5, 18.75),
  'claude-opus-4': price(15, 75, 1.5, 18.75),
  'claude-3-opus': price(15, 75, 1.5, 18.75),
  'claude-sonnet-4-5': price(3, 15, 0.3, 3.75),
  'claude-sonnet-4': price(3, 15, 0.3, 3.75),
  'claude-3-7-sonnet': price(3, 15, 0.3, 3.75),
  'claude-3-5-sonnet': price(3, 15, 0.3, 3.75),
  'claude-haiku-4-5': price(1, 5, 0.1, 1.25),
  'claude-3-5-haiku': price(0.8, 4, 0.08, 1),
  'claude-3-haiku': price(0.25, 1.25, 0.03, 0.3),
  'gpt-5': price(1.25, 10, 0.125),
  'gpt-5-mini': price(0.25, 2, 0.025),
  'gpt-5-nano': price(0.05, 0.4, 0.005),
  'gpt-4-1': price(2, 8, 0.5),
  'gpt-4-1-mini': price(0.4, 1.6, 0.1),
  'gpt-4-1-nano': price(0.1, 0.4, 0.025),
  'gpt-4o': price(2.5, 10, 1.25),
  'gpt-4o-mini': price(0.15, 0.6, 0.075),
  o1: price(15, 60, 7.5),
  'o1-mini': price(1.1, 4.4, 0.55),
  o3: price(2, 8, 0.5),
  'o3-pro': price(20, 80),
  'o3-mini': price(1.1, 4.4, 0.55),
  'o4-mini': price(1.1, 4.4, 0.275),
  'deepseek-chat': price(0.28, 0.42, 0.028),
  'deepseek-reasoner': price(0.28, 0.42, 0.028),
  'devstral-medium': price(0.4, 2),
  'devstral-small': price(0.1, 0.3),
  'mistral-large': price(2, 6),
  'mistral-medium': price(0.4, 2),
  'magistral-medium': price(2, 5),
  codestral: price(0.3, 0.9),
  'gemini-2-5-pro': price(1.25, 10, 0.31),
  'gemini-2-5-flash': price(0.3, 2.5, 0.075),
  'grok-4': price(3, 15, 0.75),
  'grok-code-fast-1': price(0.2, 1.5, 0.02),
};

/** One entry of `<data>/prices.json`: USD per 1M tokens; cache prices default to the input price. */
const priceEntrySchema = z.strictObject({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cache_read: z.number().nonnegative().optional(),
  cache_write: z.number().nonnegative().optional(),
});
const priceFileSchema = z.record(z.string().min(1), priceEntrySchema);

/** The shipped prices, overridden by the user's. */
export class PriceTable {
  private readonly exact: Map<string, ModelPrice>;
  private readonly byKey: Record<string, ModelPrice>;

  /** `overrides` are keyed by a full model string (`ollama/my-model`) or a model name (`claude-sonnet-4-5`). */
  constructor(overrides: Record<string, ModelPrice> = {}) {
    const entries = Object.entries(overrides);
    this.exact = new Map(entries.map(([model, p]) => [model.trim().toLowerCase(), p]));
    this.byKey = {
      ...SHIPPED_PRICES,
      ...Object.fromEntries(entries.map(([model, p]) => [modelKey(model), p])),
    };
  }

  priceOf(model: string): ModelPrice | undefined {
    return this.exact.get(model.trim().toLowerCase()) ?? lookupModel(this.byKey, model);
  }
}

export interface LoadedPrices {
  table: PriceTable;
  /** Why the file was not used, when it exists but is invalid. */
  problem: string | null;
}

/** Reads `<data>/prices.json` if it exists; an invalid file leaves the shipped prices and says why. */
export function loadPriceTable(pricesPath: string): LoadedPrices {
  let text: string;
  try {
    text = readFileSync(pricesPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { table: new PriceTable(), problem: null };
    return { table: new PriceTable(), problem: `${pricesPath} cannot be read: ${(error as Error).message}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return {
      table: new PriceTable(),
      problem: `${pricesPath} is not valid JSON: ${(error as Error).message}`,
    };
  }
  const parsed = priceFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      table: new PriceTable(),
      problem:
        `${pricesPath} is not a price table: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim(),
    };
  }
  const overrides = Object.fromEntries(
    Object.entries(parsed.data).map(([model, e]) => [
      model,
      price(e.input, e.output, e.cache_read ?? e.input, e.cache_write ?? e.input),
    ]),
  );
  return { table: new PriceTable(overrides), problem: null };
}
