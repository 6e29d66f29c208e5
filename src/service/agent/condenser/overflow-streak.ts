/** The `error` reason when condensing does not bring the prompt within the context window (agent-behaviour §5). */
export const CONTEXT_OVERFLOW_ERROR =
  "The conversation does not fit the model's context window even after condensing. Start a new conversation or choose a model with a larger context window.";

const OVERFLOWS_IN_A_ROW = 3;

/**
 * Counts the agent's model calls that overflowed the context window in a row, so that condensing cannot
 * loop: the third one in a row ends the step with `CONTEXT_OVERFLOW_ERROR`.
 */
export class OverflowStreak {
  private count = 0;

  /**
   * Records an overflow; true when it is the third in a row: the agent stops with the error, and the
   * count starts over for whatever the user does next.
   */
  overflowed(): boolean {
    this.count += 1;
    if (this.count < OVERFLOWS_IN_A_ROW) return false;
    this.count = 0;
    return true;
  }

  /** A call that fitted: the streak starts over. */
  fitted(): void {
    this.count = 0;
  }
}
