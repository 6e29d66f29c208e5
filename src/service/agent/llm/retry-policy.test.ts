import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LLM_TIMING,
  abortableSleep,
  llmTimingFromEnv,
  retryDelayS,
  type LlmTiming,
} from './retry-policy';

const fixed = (random: number): LlmTiming => ({ ...DEFAULT_LLM_TIMING, random: () => random });

describe('retryDelayS', () => {
  it('backs off 8/16/32/64/64 s', () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelayS(n, undefined, fixed(0.5)))).toEqual([8, 16, 32, 64, 64]);
  });

  it('adds at most ±10% jitter', () => {
    expect(retryDelayS(1, undefined, fixed(0))).toBeCloseTo(7.2, 10);
    expect(retryDelayS(1, undefined, fixed(0.999999))).toBeCloseTo(8.8, 4);
  });

  it('honours Retry-After up to 120 s, exactly', () => {
    expect(retryDelayS(3, 42, fixed(0))).toBe(42);
    expect(retryDelayS(3, 120, fixed(0))).toBe(120);
    expect(retryDelayS(3, 121, fixed(0.5))).toBe(32);
  });
});

describe('abortableSleep', () => {
  it('rejects with the reason as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const sleeping = abortableSleep(60_000, controller.signal);
    controller.abort(new Error('Stop'));
    await expect(sleeping).rejects.toThrow('Stop');
  });

  it('resolves after the time', async () => {
    await expect(abortableSleep(1, new AbortController().signal)).resolves.toBeUndefined();
  });
});

describe('llmTimingFromEnv', () => {
  it('reads idle, total, backoff and Retry-After cap overrides in seconds', () => {
    expect(
      llmTimingFromEnv({
        DOCKHAND_LLM_IDLE_TIMEOUT_S: '0.5',
        DOCKHAND_LLM_TOTAL_TIMEOUT_S: '3',
        DOCKHAND_LLM_BACKOFF_S: '0.01, 0.02',
        DOCKHAND_LLM_RETRY_AFTER_CAP_S: '1',
      }),
    ).toEqual({ idleTimeoutMs: 500, totalTimeoutMs: 3000, backoffS: [0.01, 0.02], retryAfterCapS: 1 });
  });

  it('ignores absent and invalid values', () => {
    expect(llmTimingFromEnv({ DOCKHAND_LLM_IDLE_TIMEOUT_S: 'soon', DOCKHAND_LLM_BACKOFF_S: '1,x' })).toEqual(
      {},
    );
  });
});
