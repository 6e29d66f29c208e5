import { describe, expect, it } from 'vitest';
import { formatDuration, formatWhen } from './when';

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

describe('formatDuration', () => {
  it('uses tenths under ten seconds, seconds under a minute, then minutes and seconds', () => {
    expect(formatDuration('2025-11-28T16:00:00.000Z', '2025-11-28T16:00:00.400Z')).toBe('0.4 s');
    expect(formatDuration('2025-11-28T16:00:00.000Z', '2025-11-28T16:00:12.300Z')).toBe('12 s');
    expect(formatDuration('2025-11-28T16:00:00.000Z', '2025-11-28T16:03:05.000Z')).toBe('3 min 5 s');
    expect(formatDuration('2025-11-28T16:00:00.000Z', '2025-11-28T16:02:00.000Z')).toBe('2 min');
  });

  it('gives nothing for unreadable or reversed times', () => {
    expect(formatDuration('soon', '2025-11-28T16:00:00.000Z')).toBeNull();
    expect(formatDuration('2025-11-28T16:00:01.000Z', '2025-11-28T16:00:00.000Z')).toBeNull();
  });
});
