import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PriceTable, loadPriceTable } from './prices';

describe('PriceTable', () => {
  const table = new PriceTable();

  it('prices current models whatever their prefix, date or dotted version', () => {
    expect(table.priceOf('anthropic/claude-sonnet-4-5-20250929')).toEqual({
      input: 3,
      output: 15,
      cacheRead: 0.3,
      cacheWrite: 3.75,
    });
    expect(table.priceOf('openrouter/anthropic/claude-sonnet-4.5')).toEqual(
      table.priceOf('claude-sonnet-4-5'),
    );
    expect(table.priceOf('openai/gpt-4o-2024-08-06')?.input).toBe(2.5);
    expect(table.priceOf('gpt-4o-mini')?.input).toBe(0.15);
    expect(table.priceOf('openai/gpt-4.1-mini')?.input).toBe(0.4);
    expect(table.priceOf('deepseek/deepseek-chat')?.output).toBe(0.42);
    expect(table.priceOf('mistral/devstral-medium-2507')?.output).toBe(2);
    expect(table.priceOf('o3-pro')?.input).toBe(20);
  });

  it('knows no price for unknown models', () => {
    expect(table.priceOf('ollama/qwen2.5-coder')).toBeUndefined();
    expect(table.priceOf('openai/gpt-4oo')).toBeUndefined();
  });
});

describe('loadPriceTable (<data>/prices.json)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'dockhand-prices-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('overrides shipped prices and adds models, by full model string or model name', () => {
    const file = path.join(dir, 'prices.json');
    writeFileSync(
      file,
      JSON.stringify({
        'claude-sonnet-4-5': { input: 1, output: 2, cache_read: 0.1 },
        'ollama/my-model': { input: 0.5, output: 0.5 },
      }),
    );
    const { table, problem } = loadPriceTable(file);
    expect(problem).toBeNull();
    expect(table.priceOf('anthropic/claude-sonnet-4-5-20250929')).toEqual({
      input: 1,
      output: 2,
      cacheRead: 0.1,
      cacheWrite: 1,
    });
    expect(table.priceOf('ollama/my-model')?.input).toBe(0.5);
    expect(table.priceOf('openai/gpt-4o')?.input).toBe(2.5);
  });

  it('uses the shipped table when the file is missing', () => {
    const { table, problem } = loadPriceTable(path.join(dir, 'absent.json'));
    expect(problem).toBeNull();
    expect(table.priceOf('gpt-4o')?.input).toBe(2.5);
  });

  it('says why an invalid file is ignored', () => {
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, '{"gpt-4o": {"input": "cheap"}}');
    expect(loadPriceTable(bad).problem).toMatch(/is not a price table: gpt-4o.input/);
    writeFileSync(bad, '{not json');
    const loaded = loadPriceTable(bad);
    expect(loaded.problem).toMatch(/is not valid JSON/);
    expect(loaded.table.priceOf('gpt-4o')?.input).toBe(2.5);
  });
});
