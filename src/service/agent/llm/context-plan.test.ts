import { describe, expect, it } from 'vitest';
import { planContext, WORKING_BUDGET_TOKENS } from './context-plan';
import { promptTruncated } from './local-model-client';
import { tableFacts, type ServerFacts } from './model-server-probe';

const facts = (over: Partial<ServerFacts>): ServerFacts => ({ ...tableFacts('ollama/unknown'), ...over });

describe('planContext', () => {
  it('asks Ollama for what a turn needs, rounded up, within the trained maximum', () => {
    const plan = planContext(facts({ server: 'ollama', resizable: true, trainedContext: 131_072 }), 5000);
    expect(plan).toMatchObject({
      needed: 5000 + WORKING_BUDGET_TOKENS,
      request: 24_576,
      window: 24_576,
      enough: true,
    });
    const small = planContext(facts({ server: 'ollama', resizable: true, trainedContext: 8192 }), 5000);
    expect(small).toMatchObject({ request: 8192, window: 8192, enough: false });
    expect(small.summary).toContain('trained for at most 8,192 tokens');
  });

  it('reloads LM Studio only when the loaded context is too small', () => {
    const lm = (loadedContext: number | null) =>
      planContext(
        facts({ server: 'lm_studio', resizable: true, trainedContext: 65_536, loadedContext }),
        4000,
      );
    expect(lm(4096)).toMatchObject({ reload: true, request: 20_480 });
    expect(lm(null)).toMatchObject({ reload: true });
    expect(lm(32_768)).toMatchObject({ reload: false, request: null, window: 32_768 });
  });

  it('takes the context llama.cpp and vLLM were started with, and says when it is too small', () => {
    const plan = planContext(
      facts({ server: 'llama_cpp', loadedContext: 8192, trainedContext: 131_072 }),
      4000,
    );
    expect(plan).toMatchObject({ request: null, window: 8192, enough: false });
    expect(plan.summary).toContain('--ctx-size 20480');
    expect(planContext(facts({ server: null, trainedContext: null }), 1000).window).toBe(32_768);
  });
});

describe('promptTruncated', () => {
  it('is a count within the window of a prompt that did not fit it', () => {
    expect(promptTruncated(20_000, 12_000, 12_288)).toBe(true);
    expect(promptTruncated(10_000, 9_000, 12_288)).toBe(false);
    // A server counting cached tokens apart reports little of a prompt that fits: not a cut.
    expect(promptTruncated(10_000, 500, 12_288)).toBe(false);
    expect(promptTruncated(20_000, 19_000, 12_288)).toBe(false);
    expect(promptTruncated(20_000, 0, 12_288)).toBe(false);
    expect(promptTruncated(20_000, 5_000, null)).toBe(true);
    expect(promptTruncated(20_000, 15_000, null)).toBe(false);
  });
});
