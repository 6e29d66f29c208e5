/** Retry and timeout timings of model calls (agent-behaviour §2.5), injectable so that tests need not wait. */
export interface LlmTiming {
  /** Retries after the first call, for rate limits and transient failures. */
  maxRetries: number;
  /** Waits before retry 1, 2, …, in seconds (the last one repeats); each gets ±`jitter`. */
  backoffS: readonly number[];
  /** Relative jitter of the backoff waits (0.1 = ±10%). */
  jitter: number;
  /** A server's `Retry-After` is honoured up to this many seconds; longer ones use the backoff. */
  retryAfterCapS: number;
  /** A call fails as transient when the server sends nothing for this long. */
  idleTimeoutMs: number;
  /** A call fails as transient when it takes longer than this in total. */
  totalTimeoutMs: number;
  /** Waits `ms`; rejects with the signal's reason as soon as it aborts. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** A number in [0, 1) for the jitter. */
  random: () => number;
}

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export const DEFAULT_LLM_TIMING: LlmTiming = {
  maxRetries: 5,
  backoffS: [8, 16, 32, 64, 64],
  jitter: 0.1,
  retryAfterCapS: 120,
  idleTimeoutMs: 120_000,
  totalTimeoutMs: 600_000,
  sleep: abortableSleep,
  random: Math.random,
};

/** The wait before retry number `retry` (from 1), in seconds. */
export function retryDelayS(retry: number, retryAfterS: number | undefined, timing: LlmTiming): number {
  if (retryAfterS !== undefined && retryAfterS <= timing.retryAfterCapS) return retryAfterS;
  const base = timing.backoffS[Math.min(retry, timing.backoffS.length) - 1] ?? 0;
  return base * (1 + timing.jitter * (2 * timing.random() - 1));
}

function seconds(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/**
 * Timing overrides from the environment, for test runs of the whole app:
 * `DOCKHAND_LLM_IDLE_TIMEOUT_S`, `DOCKHAND_LLM_TOTAL_TIMEOUT_S`, `DOCKHAND_LLM_BACKOFF_S` (comma-separated
 * seconds) and `DOCKHAND_LLM_RETRY_AFTER_CAP_S`. Fractions are allowed.
 */
export function llmTimingFromEnv(env: NodeJS.ProcessEnv): Partial<LlmTiming> {
  const idle = seconds(env.DOCKHAND_LLM_IDLE_TIMEOUT_S);
  const total = seconds(env.DOCKHAND_LLM_TOTAL_TIMEOUT_S);
  const cap = seconds(env.DOCKHAND_LLM_RETRY_AFTER_CAP_S);
  const backoff = env.DOCKHAND_LLM_BACKOFF_S?.split(',').map(seconds);
  return {
    ...(idle === undefined ? {} : { idleTimeoutMs: idle * 1000 }),
    ...(total === undefined ? {} : { totalTimeoutMs: total * 1000 }),
    ...(cap === undefined ? {} : { retryAfterCapS: cap }),
    ...(backoff?.length && backoff.every((s) => s !== undefined) ? { backoffS: backoff as number[] } : {}),
  };
}
