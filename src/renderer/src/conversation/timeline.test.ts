import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { V0Event } from '../../../shared/api/events';
import { commandOutput } from './command-output';
import { buildTimeline, lastAgentState, pendingAction, TimelineBuilder } from './timeline';
import type { TimelineRow } from './timeline-rows';
import { event, stateChanged } from '../../../../test/support/test-events';

const STAMP = event(0).timestamp;

const call = (id: string) => ({ tool_call_id: id, function_name: 'execute_bash' });

function runAction(id: number, command: string, confirmation: string, callId: string, risk = 1) {
  return event(id, {
    action: 'run',
    message: `Running command: ${command}`,
    args: { command, thought: '', confirmation_state: confirmation, security_risk: risk, hidden: false },
    tool_call_metadata: call(callId),
  });
}

function runObservation(id: number, cause: number, content: string, exitCode: number) {
  return event(id, {
    observation: 'run',
    content,
    cause,
    extras: { command: 'x', metadata: { exit_code: exitCode, working_dir: '/workspace/project' } },
  });
}

describe('buildTimeline', () => {
  it('folds command output into its command and hides bookkeeping events', () => {
    const rows = buildTimeline([
      event(0, { action: 'system', args: { content: 'You are…' } }),
      stateChanged(1, 'loading'),
      event(2, { source: 'user', action: 'message', args: { content: 'list files' } }),
      stateChanged(3, 'running'),
      event(4, { source: 'environment', observation: 'recall', content: '', extras: {} }),
      runAction(5, 'ls', 'confirmed', 'call_1', 0),
      runObservation(
        6,
        5,
        'a.txt\n[The command completed with exit code 0.]\n[Current working directory: /workspace/project]\n[Python interpreter: /usr/bin/python3]',
        0,
      ),
      event(7, { action: 'message', args: { content: 'There is **a.txt**.' } }),
      stateChanged(8, 'awaiting_user_input'),
    ]);
    expect(rows).toEqual([
      { key: 'e2', id: 2, at: STAMP, kind: 'message', source: 'user', text: 'list files' },
      {
        key: 'e5',
        id: 5,
        at: STAMP,
        kind: 'command',
        command: 'ls',
        source: 'agent',
        thought: '',
        confirmation: 'confirmed',
        risk: 0,
        error: null,
        rejected: false,
        output: 'a.txt',
        exitCode: 0,
        workingDir: '/workspace/project',
        endedAt: STAMP,
      },
      { key: 'e7', id: 7, at: STAMP, kind: 'message', source: 'agent', text: 'There is **a.txt**.' },
    ]);
  });

  it('shows an edit with its diff, a collapsed thought and a read', () => {
    const rows = buildTimeline([
      event(0, { action: 'think', args: { thought: 'check first' } }),
      event(1, { action: 'read', args: { path: '/workspace/project/a.py', thought: '' } }),
      event(2, { observation: 'read', content: 'print(1)', cause: 1, extras: {} }),
      event(3, {
        action: 'edit',
        args: { path: '/workspace/project/a.py', command: 'str_replace', thought: '' },
      }),
      event(4, { observation: 'edit', content: 'edited', cause: 3, extras: { diff: '@@ -1 +1 @@\n-1\n+2' } }),
      event(5, { observation: 'think', content: 'Your thought has been logged.', cause: 0 }),
    ]);
    expect(rows.map((row) => row.kind)).toEqual(['think', 'read', 'edit']);
    expect(rows[1]).toMatchObject({ kind: 'read', path: '/workspace/project/a.py', output: 'print(1)' });
    expect(rows[2]).toMatchObject({ kind: 'edit', operation: 'str_replace', diff: '@@ -1 +1 @@\n-1\n+2' });
  });

  it('shows a confirmed action once, in its confirmed form, and marks a rejected one', () => {
    const rows = buildTimeline([
      runAction(0, 'touch /tmp/x', 'awaiting_confirmation', 'call_1'),
      stateChanged(1, 'awaiting_user_confirmation'),
      runAction(2, 'touch /tmp/x', 'confirmed', 'call_1'),
      runObservation(3, 2, '', 0),
      runAction(4, 'rm /tmp/x', 'awaiting_confirmation', 'call_2'),
      runAction(5, 'rm /tmp/x', 'rejected', 'call_2'),
      event(6, { observation: 'user_rejected', content: 'Action has been rejected by the user!', cause: 5 }),
    ]);
    expect(rows.map((row) => [row.id, row.kind])).toEqual([
      [2, 'command'],
      [5, 'command'],
    ]);
    expect(rows[1]).toMatchObject({ confirmation: 'rejected', rejected: true });
  });

  it('attaches the error that says why a call did not run to that call', () => {
    const rows = buildTimeline([
      runAction(0, 'sleep 100', 'confirmed', 'call_9'),
      stateChanged(1, 'stopped'),
      event(2, {
        observation: 'error',
        content: 'Stop button pressed. The action has not been executed.',
        tool_call_metadata: call('call_9'),
      }),
      event(3, { observation: 'error', content: 'The model failed' }),
    ]);
    expect(rows).toMatchObject([
      { kind: 'command', error: 'Stop button pressed. The action has not been executed.' },
      { kind: 'state', state: 'stopped' },
      { kind: 'error', text: 'The model failed' },
    ]);
  });

  it('marks only state changes that interrupt the work, once each', () => {
    const rows = buildTimeline([
      stateChanged(0, 'running'),
      stateChanged(1, 'paused'),
      stateChanged(2, 'paused'),
      stateChanged(3, 'running'),
      stateChanged(4, 'paused'),
      stateChanged(5, 'error', 'Agent reached maximum iteration.'),
      stateChanged(6, 'awaiting_user_input'),
    ]);
    expect(rows.map((row) => (row.kind === 'state' ? [row.state, row.reason] : null))).toEqual([
      ['paused', ''],
      ['paused', ''],
      ['error', 'Agent reached maximum iteration.'],
    ]);
  });

  it('skips hidden commands and empty messages, and notes unknown kinds by their message', () => {
    const rows = buildTimeline([
      event(0, { action: 'run', args: { command: 'setup', hidden: true } }),
      event(1, { action: 'message', args: { content: '  ' } }),
      event(2, { observation: 'task_tracking', message: 'Updated the task list', content: '' }),
    ]);
    expect(rows).toEqual([{ key: 'e2', id: 2, at: STAMP, kind: 'note', text: 'Updated the task list' }]);
  });
});

describe('repository code', () => {
  const setup = { id: 'q1', kind: 'setup_script', name: '.openhands/setup.sh', content: 'make deps\n' };
  const asked = (id: number, confirmation: string, code = setup) =>
    event(id, {
      source: 'environment',
      action: 'run',
      message: 'The repository’s setup script .openhands/setup.sh',
      args: { command: 'source x', hidden: true, confirmation_state: confirmation, repository_code: code },
    });

  it('shows hidden repository code, its question settled by the answer, with the rejection or the note', () => {
    const waiting = buildTimeline([
      asked(0, 'awaiting_confirmation'),
      stateChanged(1, 'awaiting_user_confirmation'),
    ]);
    expect(waiting).toMatchObject([{ kind: 'command', confirmation: 'awaiting_confirmation', code: setup }]);
    expect(pendingAction([asked(0, 'awaiting_confirmation')])?.id).toBe(0);

    const rejected = buildTimeline([
      asked(0, 'awaiting_confirmation'),
      asked(1, 'rejected'),
      event(2, {
        observation: 'user_rejected',
        content: 'Action has been rejected',
        cause: 1,
        extras: { hidden: true },
      }),
      asked(3, 'rejected', { ...setup, id: 'q2' }),
      event(4, {
        observation: 'error',
        content: 'Not run: process sandbox',
        cause: 3,
        extras: { hidden: true },
      }),
    ]);
    expect(rejected).toMatchObject([
      { id: 1, kind: 'command', confirmation: 'rejected', rejected: true, code: setup },
      { id: 3, kind: 'command', error: 'Not run: process sandbox', code: { id: 'q2' } },
    ]);
  });
});

describe('commandOutput', () => {
  it('keeps everything but the trailing annotations for the model', () => {
    expect(commandOutput('x\n[Command timed out]\n[The command completed with exit code 1.]')).toBe(
      'x\n[Command timed out]',
    );
    expect(commandOutput('\n[The command completed with exit code 0.]')).toBe('');
    expect(commandOutput('a\n\nb\n  \n[Current working directory: /w]\n\n')).toBe('a\n\nb');
    expect(commandOutput('[Python interpreter: /usr/bin/python3]')).toBe('');
    expect(commandOutput('done')).toBe('done');
    expect(commandOutput('')).toBe('');
  });
});

describe('lastAgentState and pendingAction', () => {
  it('read the latest state and the action waiting for confirmation', () => {
    const asked = runAction(3, 'rm -rf /tmp/y', 'awaiting_confirmation', 'call_3', 2);
    const events = [stateChanged(0, 'running'), runAction(1, 'ls', 'confirmed', 'call_1'), asked];
    expect(lastAgentState([...events, stateChanged(4, 'awaiting_user_confirmation')])).toBe(
      'awaiting_user_confirmation',
    );
    expect(pendingAction(events)).toBe(asked);
    expect(pendingAction([...events, runAction(5, 'rm -rf /tmp/y', 'confirmed', 'call_3')])).toBeNull();
    expect(lastAgentState([])).toBeNull();
  });
});

describe('TimelineBuilder', () => {
  const calls = ['call_a', 'call_b', 'call_c'];
  const confirmations = ['awaiting_confirmation', 'confirmed', 'rejected'];
  /** One event of a kind the timeline treats specially, its references drawn from `pick`. */
  function someEvent(id: number, kind: number, pick: number): V0Event {
    const callId = calls[pick % calls.length] as string;
    switch (kind) {
      case 0:
        return runAction(id, `cmd ${id}`, confirmations[pick % 3] as string, callId);
      case 1:
        return runObservation(id, Math.max(0, id - 1 - (pick % 4)), `out ${id}`, pick % 2);
      case 2:
        return event(id, { observation: 'error', content: 'not run', tool_call_metadata: call(callId) });
      case 3:
        return event(id, { observation: 'user_rejected', content: '', cause: Math.max(0, id - 1) });
      case 4:
        return stateChanged(id, ['running', 'paused', 'finished', 'error'][pick % 4] as string);
      default:
        return event(id, { source: 'user', action: 'message', args: { content: `m${id}` } });
    }
  }

  it('updated in steps, gives the rows of a build from the start, and keeps unchanged rows', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(5), fc.nat(11)), { maxLength: 40 }),
        fc.array(fc.nat(40), { maxLength: 5 }),
        (shapes, cuts) => {
          const events = shapes.map(([kind, pick], id) => someEvent(id, kind, pick));
          const builder = new TimelineBuilder();
          let previous: readonly TimelineRow[] = [];
          let previousCopy: TimelineRow[] = [];
          for (const cut of [...cuts].sort((a, b) => a - b)) {
            const prefix = events.slice(0, Math.min(cut, events.length));
            const rows = builder.update(prefix);
            expect(rows).toEqual(buildTimeline(prefix));
            // A row object shown before is either the same as then or replaced, never changed in place.
            const kept = rows.filter((row) => previous.includes(row));
            for (const row of kept) expect(row).toEqual(previousCopy.find((old) => old.key === row.key));
            previous = rows;
            previousCopy = structuredClone([...rows]);
          }
          expect(builder.update(events)).toEqual(buildTimeline(events));
        },
      ),
    );
  });

  it('rebuilds when an event arrives before ones already read', () => {
    const builder = new TimelineBuilder();
    const later = [runAction(1, 'ls', 'confirmed', 'call_1'), runObservation(2, 1, 'a', 0)];
    builder.update(later);
    const all = [event(0, { source: 'user', action: 'message', args: { content: 'hi' } }), ...later];
    expect(builder.update(all)).toEqual(buildTimeline(all));
  });
});
