import { describe, expect, it } from 'vitest';
import { encodePath, isoTimestamp } from './provider-values';

describe('isoTimestamp', () => {
  it('writes provider timestamps as UTC with milliseconds', () => {
    expect(isoTimestamp('2025-03-01T10:00:00Z')).toBe('2025-03-01T10:00:00.000Z');
    expect(isoTimestamp('2025-03-01T12:00:00+01:00')).toBe('2025-03-01T11:00:00.000Z');
    expect(isoTimestamp('2025-03-03T00:00:00.123456+00:00')).toBe('2025-03-03T00:00:00.123Z');
  });

  it('is null for nothing or nonsense', () => {
    expect(isoTimestamp(null)).toBeNull();
    expect(isoTimestamp(undefined)).toBeNull();
    expect(isoTimestamp('yesterday')).toBeNull();
  });
});

describe('encodePath', () => {
  it('encodes each segment and keeps the slashes', () => {
    expect(encodePath('.openhands/micro agents/a#1.md')).toBe('.openhands/micro%20agents/a%231.md');
  });
});
