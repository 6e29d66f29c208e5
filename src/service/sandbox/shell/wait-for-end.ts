import { hardTimeoutSuffix, noChangeSuffix } from './messages';
import type { ShellOutcome, ShellResult } from './shell-result';
import type { WaitLimits } from './shell-limits';

/** Why a wait ended: the prompt marker, the shell's exit, a timeout, or a Stop (with its coming result). */
export type WaitEnd = 'marker' | 'exit' | 'no_change' | 'hard_timeout' | { stop: Promise<ShellResult> };

export type ShellEvent = 'data' | 'state';

/** What a wait watches: the session's own state, and its notices of new output and state changes. */
export interface WaitWatch {
  /** The end reached already ('marker', 'exit' or a Stop), else null. */
  reached(): Exclude<WaitEnd, 'no_change' | 'hard_timeout'> | null;
  /** Calls `listener` on each notice until the returned function is called. */
  subscribe(listener: (event: ShellEvent) => void): () => void;
}

/**
 * Waits until `watch` reaches an end, or a timeout: the hard one, or no new output for `noChangeMs` (the
 * clock restarts at each output). Never acts on the shell: a timeout only stops waiting.
 */
export function waitForEnd(watch: WaitWatch, limits: WaitLimits): Promise<WaitEnd> {
  return new Promise((resolve) => {
    let noChangeTimer: NodeJS.Timeout | undefined;
    let unsubscribe = (): void => undefined;
    const finish = (end: WaitEnd): void => {
      clearTimeout(hardTimer);
      clearTimeout(noChangeTimer);
      unsubscribe();
      resolve(end);
    };
    const settled = (): boolean => {
      const end = watch.reached();
      if (end) finish(end);
      return end !== null;
    };
    const armNoChange = (): void => {
      if (limits.noChangeMs === null) return;
      clearTimeout(noChangeTimer);
      noChangeTimer = setTimeout(() => finish('no_change'), limits.noChangeMs);
    };
    const hardTimer = setTimeout(() => finish('hard_timeout'), limits.hardMs);
    unsubscribe = watch.subscribe((event) => {
      if (!settled() && event === 'data') armNoChange();
    });
    if (!settled()) armNoChange();
  });
}

/** What a wait that timed out reports: its outcome, and the suffix naming the limit it reached. */
export function timeoutReport(
  end: 'no_change' | 'hard_timeout',
  limits: WaitLimits,
): { outcome: ShellOutcome; suffix: string } {
  return end === 'no_change'
    ? { outcome: 'no_change_timeout', suffix: noChangeSuffix((limits.noChangeMs ?? 0) / 1000) }
    : { outcome: 'hard_timeout', suffix: hardTimeoutSuffix(limits.hardMs / 1000) };
}
