import { describe, expect, it } from 'vitest';
import { agentStateText, riskLevel, runtimeStatusText, runtimeStatusTone } from './words';

describe('runtime status and agent state in words', () => {
  it('names known runtime statuses and spells out unknown ones', () => {
    expect(runtimeStatusText('STATUS$STARTING_RUNTIME')).toBe('Starting the sandbox…');
    expect(runtimeStatusText('STATUS$READY')).toBe('Ready');
    expect(runtimeStatusText('STATUS$SOMETHING_NEW')).toBe('something new');
    expect(runtimeStatusText(null)).toBeNull();
    expect(runtimeStatusTone('STATUS$ERROR_LLM_AUTHENTICATION')).toBe('error');
    expect(runtimeStatusTone('STATUS$READY')).toBe('ok');
  });

  it('names agent states', () => {
    expect(agentStateText('awaiting_user_confirmation')).toBe('Waiting for your confirmation');
    expect(agentStateText('some_new_state')).toBe('some new state');
  });

  it('maps security_risk 0/1/2 to levels and anything else to unknown', () => {
    expect([0, 1, 2, -1, undefined, 'HIGH'].map(riskLevel)).toEqual([
      'LOW',
      'MEDIUM',
      'HIGH',
      'UNKNOWN',
      'UNKNOWN',
      'UNKNOWN',
    ]);
  });
});
