/** Agent states in which a conversation may be stopped to make room for another, or as idle. */
const IDLE_STATES: ReadonlySet<string | null> = new Set([
  'awaiting_user_input',
  'finished',
  'error',
  'stopped',
  'paused',
  'rejected',
  null,
]);

/**
 * Agent states that end a turn of the agent (it waits, finished or gave up). Not `stopped`: the sandbox may
 * be pausing then, and an exec that starts in a container being frozen can hang.
 */
const TURN_ENDS: ReadonlySet<string> = new Set([
  'awaiting_user_input',
  'finished',
  'error',
  'paused',
  'rejected',
]);

/** Whether an agent in this state (null: none yet) is not working. */
export function isIdleState(state: string | null): boolean {
  return IDLE_STATES.has(state);
}

/** Whether the agent reaching this state ends its turn. */
export function endsTurn(state: string): boolean {
  return TURN_ENDS.has(state);
}
