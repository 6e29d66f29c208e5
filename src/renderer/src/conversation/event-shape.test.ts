import { describe, expect, it } from 'vitest';
import { V0Event } from '../../../shared/api/events';
import { asV0Event } from './event-shape';

const valid = {
  id: 3,
  timestamp: '2025-11-28T16:16:34.123Z',
  source: 'agent',
  message: 'Running command: ls',
  action: 'run',
  args: { command: 'ls' },
  tool_call_metadata: { tool_call_id: 'c1' },
  extra_key: [1, 2],
};

describe('asV0Event', () => {
  it('accepts what the schema accepts, unknown keys included', () => {
    expect(asV0Event(valid)).toBe(valid);
    expect(V0Event.safeParse(valid).success).toBe(true);
  });

  it.each([
    null,
    [],
    'text',
    { ...valid, id: 1.5 },
    { ...valid, id: '3' },
    { ...valid, timestamp: 1 },
    { ...valid, source: 'robot' },
    { ...valid, message: null },
    { ...valid, action: 5 },
    { ...valid, args: [] },
    { ...valid, extras: 'x' },
    { ...valid, cause: null },
    { ...valid, content: {} },
    { ...valid, success: 'yes' },
    { ...valid, security_risk: 0.5 },
    { ...valid, llm_metrics: null },
  ])('rejects what the schema rejects: %j', (value) => {
    expect(asV0Event(value)).toBeNull();
    expect(V0Event.safeParse(value).success).toBe(false);
  });
});
