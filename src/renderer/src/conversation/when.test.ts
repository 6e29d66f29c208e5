import { describe, expect, it } from 'vitest';
import { formatWhen } from './when';

describe('formatWhen', () => {
  const now = Date.parse('2025-11-28T16:00:00.000Z');

  it('says how long ago within a day', () => {
    expect(formatWhen('2025-11-28T15:59:30.000Z', now)).toBe('just now');
    expect(formatWhen('2025-11-28T15:55:00.000Z', now)).toBe('5 min ago');
    expect(formatWhen('2025-11-28T13:00:00.000Z', now)).toBe('3 h ago');
  });

  it('gives the date for older times and the text for unreadable ones', () => {
    expect(formatWhen('2025-11-20T10:00:00.000Z', now)).toMatch(/2025/);
    expect(formatWhen('yesterday', now)).toBe('yesterday');
  });
});
