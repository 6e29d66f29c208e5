import { describe, expect, it } from 'vitest';
import type { V0Event } from '../../shared/api/events';
import type { DockhandEvent } from '../events/model/dockhand-event';
import { fromV0 } from '../events/model/v0-codec';
import { interruptedActions } from './interrupted-actions';

/** An event as the log reads a V0 row. */
function event(id: number, fields: Partial<V0Event>): DockhandEvent {
  return fromV0({ id, timestamp: '', source: 'agent', message: '', ...fields });
}

describe('interruptedActions', () => {
  it('finds the actions that started but have no observation', () => {
    const history = [
      event(0, { action: 'system', args: {} }),
      event(1, { source: 'user', action: 'message', args: { content: 'go' } }),
      event(2, { action: 'run', args: { command: 'ls', confirmation_state: 'confirmed' } }),
      event(3, { observation: 'run', cause: 2 }),
      event(4, { action: 'run', args: { command: 'rm -rf /', confirmation_state: 'awaiting_confirmation' } }),
      event(5, { action: 'run', args: { command: 'sleep 30', confirmation_state: 'confirmed' } }),
      event(6, { source: 'user', action: 'run', args: { command: 'pwd', confirmation_state: 'confirmed' } }),
      event(7, { action: 'finish', args: { final_thought: 'done' } }),
      event(8, { action: 'run', args: { command: 'x', confirmation_state: 'rejected' } }),
    ];
    expect(interruptedActions(history).map((e) => e.id)).toEqual([5, 6]);
  });
});
