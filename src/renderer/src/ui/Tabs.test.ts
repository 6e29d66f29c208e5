import { describe, expect, it } from 'vitest';
import { stepTab } from './Tabs';

describe('stepTab', () => {
  it('moves to the neighbour', () => {
    expect(stepTab(0, 1, 3)).toBe(1);
    expect(stepTab(2, -1, 3)).toBe(1);
  });

  it('wraps at both ends', () => {
    expect(stepTab(2, 1, 3)).toBe(0);
    expect(stepTab(0, -1, 3)).toBe(2);
  });
});
