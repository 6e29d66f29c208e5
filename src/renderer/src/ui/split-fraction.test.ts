import { describe, expect, it } from 'vitest';
import { clampFraction, readFraction } from './split-fraction';

describe('split fraction', () => {
  it('keeps a fraction within its bounds', () => {
    expect(clampFraction(0.1, 0.3, 0.8)).toBe(0.3);
    expect(clampFraction(0.95, 0.3, 0.8)).toBe(0.8);
    expect(clampFraction(0.5, 0.3, 0.8)).toBe(0.5);
  });

  it('reads a stored fraction, clamped, and falls back on nothing or garbage', () => {
    expect(readFraction('0.42', 0.6, 0.3, 0.8)).toBe(0.42);
    expect(readFraction('2', 0.6, 0.3, 0.8)).toBe(0.8);
    expect(readFraction(null, 0.6, 0.3, 0.8)).toBe(0.6);
    expect(readFraction('wide', 0.6, 0.3, 0.8)).toBe(0.6);
  });
});
