import type { AgentState } from './agent-events';

/** The states a user's `change_agent_state` may ask the loop for. */
export type RequestedState = 'running' | 'paused' | 'stopped' | 'user_confirmed' | 'user_rejected';

/** How a state saved before a restart comes back: work in flight is paused, not resumed on its own. */
const RESUMED_AS: Partial<Record<AgentState, AgentState>> = {
  loading: 'awaiting_user_input',
  running: 'paused',
  rate_limited: 'paused',
  user_confirmed: 'paused',
  user_rejected: 'awaiting_user_input',
};

/** The state a loop resumes in after a restart; a confirmation is awaited only if its call was kept. */
export function resumedState(saved: AgentState, pendingKept: boolean): AgentState {
  const state = RESUMED_AS[saved] ?? saved;
  return state === 'awaiting_user_confirmation' && !pendingKept ? 'awaiting_user_input' : state;
}
