/** The waits and sizes a ShellSession keeps to; each has a default. */
export interface ShellLimits {
  /** Without a `timeout`, a command that prints nothing for this long is reported (30 s). */
  noChangeTimeoutMs: number;
  /** Without a `timeout`, the longest wait for one command (120 s). */
  hardTimeoutMs: number;
  /** Stop: how long C-c gets before the foreground process group is sent SIGINT (2 s). */
  interruptGraceMs: number;
  /** Stop: how long SIGINT, then SIGKILL, get before the next step (3 s each). */
  killGraceMs: number;
  /** The longest wait for a new shell's first prompt (30 s). */
  startTimeoutMs: number;
  /** Output longer than this keeps its first and last halves; the whole is saved in the sandbox (30 000). */
  maxOutputChars: number;
  /** Unread output kept in memory: past twice this, the middle is dropped (8 000 000 characters). */
  maxBufferedChars: number;
}

export const DEFAULT_SHELL_LIMITS: ShellLimits = {
  noChangeTimeoutMs: 30_000,
  hardTimeoutMs: 120_000,
  interruptGraceMs: 2_000,
  killGraceMs: 3_000,
  startTimeoutMs: 30_000,
  maxOutputChars: 30_000,
  maxBufferedChars: 8_000_000,
};

/** How long one wait lasts: reported after `noChangeMs` without output (never when null), or `hardMs` in all. */
export interface WaitLimits {
  noChangeMs: number | null;
  hardMs: number;
}

/** A command's waits: its `timeout` (seconds, clamped to 1-600) alone, else the no-change rule and the hard cap. */
export function commandWaitLimits(timeout: number | null | undefined, limits: ShellLimits): WaitLimits {
  if (timeout === null || timeout === undefined || !Number.isFinite(timeout)) {
    return { noChangeMs: limits.noChangeTimeoutMs, hardMs: limits.hardTimeoutMs };
  }
  return { noChangeMs: null, hardMs: Math.min(600, Math.max(1, timeout)) * 1000 };
}

/** A wait with no no-change rule, e.g. for a prompt or a Stop's grace. */
export function fixedWait(ms: number): WaitLimits {
  return { noChangeMs: null, hardMs: ms };
}
