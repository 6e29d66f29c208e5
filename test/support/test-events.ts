import type { V0Event } from '../../src/shared/api/events';

const STAMP = '2025-11-28T16:16:34.123Z';

/** A V0 event with the given id and fields, for the renderer's tests. */
export function event(id: number, fields: Partial<V0Event> = {}): V0Event {
  return { id, timestamp: STAMP, source: 'agent', message: '', ...fields };
}

export function stateChanged(id: number, agentState: string, reason = ''): V0Event {
  return event(id, {
    source: 'environment',
    observation: 'agent_state_changed',
    content: '',
    extras: { agent_state: agentState, reason },
  });
}
