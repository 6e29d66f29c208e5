import { describe, expect, it } from 'vitest';
import { CONTEXT_OVERFLOW_ERROR, OverflowStreak } from './overflow-streak';

describe('OverflowStreak', () => {
  it('ends on the third overflow in a row, and starts over after a call that fitted or the error', () => {
    const streak = new OverflowStreak();
    expect([streak.overflowed(), streak.overflowed()]).toEqual([false, false]);
    streak.fitted();
    expect([streak.overflowed(), streak.overflowed(), streak.overflowed()]).toEqual([false, false, true]);
    expect(streak.overflowed()).toBe(false);
  });

  it('has the exact error text', () => {
    expect(CONTEXT_OVERFLOW_ERROR).toBe(
      "The conversation does not fit the model's context window even after condensing. Start a new conversation or choose a model with a larger context window.",
    );
  });
});
