/** The share of the width the first pane takes, kept within [min, max]; a stored value that is not a number gives the fallback. */
export function clampFraction(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

export function readFraction(stored: string | null, fallback: number, min: number, max: number): number {
  const value = stored === null ? Number.NaN : Number(stored);
  return Number.isFinite(value) ? clampFraction(value, min, max) : fallback;
}
