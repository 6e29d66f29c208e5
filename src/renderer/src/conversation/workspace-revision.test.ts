import { describe, expect, it } from 'vitest';
import type { V0Event } from '../../../shared/api/events';
import { workspaceRevision } from './workspace-revision';

const STAMP = '2025-11-28T16:16:34.123Z';

function observation(id: number, kind: string): V0Event {
  return { id, timestamp: STAMP, source: 'agent', message: '', observation: kind, content: '' };
}

describe('workspaceRevision', () => {
  it('is the id of the last command or edit result', () => {
    const events = [observation(0, 'run'), observation(1, 'edit'), observation(2, 'agent_state_changed')];
    expect(workspaceRevision(events)).toBe(1);
  });

  it('is -1 before anything could change the workspace', () => {
    expect(workspaceRevision([observation(0, 'agent_state_changed')])).toBe(-1);
    expect(workspaceRevision([])).toBe(-1);
  });
});
