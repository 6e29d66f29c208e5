import type { LlmTiming } from '../../../src/service/agent/llm/retry-policy';

/**
 * LLM retry timings for tests: waits are recorded (in ms) and skipped, so that a test can assert the
 * backoff without spending it; a pending wait still rejects when the signal aborts.
 */
export function instantTiming(overrides: Partial<LlmTiming> = {}): {
  timing: Partial<LlmTiming>;
  waits: number[];
} {
  const waits: number[] = [];
  const sleep = (ms: number, signal: AbortSignal) => {
    waits.push(ms);
    return signal.aborted ? Promise.reject(signal.reason) : Promise.resolve();
  };
  return { timing: { sleep, random: () => 0.5, ...overrides }, waits };
}
