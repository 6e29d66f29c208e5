import { describe, expect, it } from 'vitest';
import type { NewEvent, V0Event } from '../../shared/api/events';
import type { DockhandEvent, NewDockhandEvent } from '../events/model/dockhand-event';
import { callFromV0, fromV0, toNewV0 } from '../events/model/v0-codec';
import { agentMessage, agentStateChanged, errorObservation, userMessage } from './agent-events';
import { detectStuck, loopDetectionEvent, STUCK_REASON } from './stuck-detector';

/** Numbers and stamps events as the event log does, and reads them as the log reads V0 rows. */
function log(...events: (NewEvent | NewDockhandEvent)[]): DockhandEvent[] {
  return events.map((event, id) =>
    fromV0({
      ...('kind' in event ? toNewV0(event as NewDockhandEvent) : event),
      id,
      timestamp: '2025-01-01T00:00:00Z',
    } as V0Event),
  );
}

let calls = 0;
function metadata(name: string, args: Record<string, unknown>) {
  calls += 1;
  return {
    function_name: name,
    tool_call_id: `call_${calls}`,
    model_response: { id: `resp_${calls}` },
    total_calls_in_response: 1,
    arguments: args,
  };
}

function run(command: string, thought = ''): NewEvent {
  return {
    source: 'agent',
    message: `Running command: ${command}`,
    action: 'run',
    args: { command, is_input: false, thought, confirmation_state: 'confirmed', security_risk: 0 },
    tool_call_metadata: metadata('execute_bash', { command }),
  };
}

function ran(command: string, exitCode: number, output = ''): NewEvent {
  return {
    source: 'agent',
    message: `Command \`${command}\` executed with exit code ${exitCode}.`,
    observation: 'run',
    content: output,
    extras: { command, hidden: false, metadata: { exit_code: exitCode, pid: 100 + calls } },
  };
}

function view(path: string): NewEvent {
  return {
    source: 'agent',
    message: `Reading file: ${path}`,
    action: 'read',
    args: { path, start: 0, end: -1, thought: '', security_risk: 0 },
  };
}

function viewed(path: string, text: string): NewEvent {
  return {
    source: 'agent',
    message: `I read the file ${path}.`,
    observation: 'read',
    content: text,
    extras: { path },
  };
}

function failed(text: string): NewDockhandEvent {
  return errorObservation(text);
}

/** An unknown tool's call: only an error observation answers it, no action is recorded. */
function unknownToolCall(): NewDockhandEvent {
  return errorObservation('Tool grep is not registered. (arguments: {}). Please check the tool name.', {
    toolCall: callFromV0(metadata('grep', { pattern: 'x' })),
  });
}

function condensation(): NewEvent {
  return {
    source: 'agent',
    message: 'Summary: …',
    action: 'condensation',
    args: { forgotten_event_ids: [], summary: '…', summary_offset: 1 },
  };
}

function condensationRequest(): NewEvent {
  return { source: 'agent', message: '', action: 'condensation_request', args: {} };
}

function times(count: number, ...events: (NewEvent | NewDockhandEvent)[]): (NewEvent | NewDockhandEvent)[] {
  return Array.from({ length: count }, () => events).flat();
}

const start = [userMessage('Fix the build')];

describe('detectStuck', () => {
  it('needs at least 3 events after the last user message', () => {
    expect(detectStuck(log(...start, run('ls'), ran('ls', 0)))).toBeNull();
    expect(
      detectStuck(log(...times(4, run('ls'), ran('ls', 0)), userMessage('go on'), run('ls'))),
    ).toBeNull();
  });

  describe('pattern 1: the last 4 actions and observations are equal', () => {
    it('matches 4 equal commands with the same exit code, whatever their output and thoughts', () => {
      const events = log(
        ...start,
        run('make', 'build it'),
        ran('make', 2, 'error at 10:01'),
        run('make', 'try again'),
        ran('make', 2, 'error at 10:02'),
        run('make'),
        ran('make', 2, 'error at 10:03'),
        run('make'),
        ran('make', 2, 'error at 10:04'),
      );
      expect(detectStuck(events)).toEqual({ pattern: 1, loopStartId: 1 });
    });

    it('ignores state changes, null and hidden events between the steps', () => {
      const hiddenRun = { ...run('source setup.sh'), args: { command: 'source setup.sh', hidden: true } };
      const nullObservation: NewEvent = {
        source: 'environment',
        message: '',
        observation: 'null',
        content: '',
        extras: {},
      };
      const events = log(
        ...start,
        ...times(
          4,
          view('/a.txt'),
          agentStateChanged('running'),
          nullObservation,
          hiddenRun,
          viewed('/a.txt', 'A'),
        ),
      );
      expect(detectStuck(events)).toEqual({ pattern: 1, loopStartId: 1 });
    });

    it('does not match 4 equal actions with different observations', () => {
      const events = log(
        ...start,
        view('/a.txt'),
        viewed('/a.txt', 'one'),
        view('/a.txt'),
        viewed('/a.txt', 'two'),
        view('/a.txt'),
        viewed('/a.txt', 'three'),
        view('/a.txt'),
        viewed('/a.txt', 'four'),
      );
      expect(detectStuck(events)).toBeNull();
    });

    it('does not match a command whose exit code changes', () => {
      const events = log(...start, ...times(3, run('make'), ran('make', 2)), run('make'), ran('make', 0));
      expect(detectStuck(events)).toBeNull();
    });

    it('does not match 3 repetitions, or 4 after a user message split them', () => {
      expect(detectStuck(log(...start, ...times(3, view('/a'), viewed('/a', 'A'))))).toBeNull();
      const split = [...times(2, view('/a'), viewed('/a', 'A')), userMessage('continue')];
      expect(detectStuck(log(...start, ...split, ...times(2, view('/a'), viewed('/a', 'A'))))).toBeNull();
    });

    it('forgets a loop that a condensation removed from the view', () => {
      const loop = times(4, view('/a'), viewed('/a', 'A'));
      const forget: NewEvent = {
        ...condensation(),
        args: { forgotten_events_start_id: 1, forgotten_events_end_id: 8, summary: '', summary_offset: 1 },
      };
      expect(detectStuck(log(...start, ...loop))).toEqual({ pattern: 1, loopStartId: 1 });
      expect(detectStuck(log(...start, ...loop, forget, view('/a'), viewed('/a', 'A')))).toBeNull();
    });
  });

  describe('pattern 2: the last 3 actions are equal and their observations are errors', () => {
    it('matches 3 equal actions answered by errors', () => {
      const events = log(...start, ...times(3, view('/missing'), failed('File /missing does not exist.')));
      expect(detectStuck(events)).toEqual({ pattern: 2, loopStartId: 1 });
    });

    it('matches 3 calls of an unknown tool, which only errors answer', () => {
      const events = log(...start, run('ls'), ran('ls', 0), ...times(3, unknownToolCall()));
      expect(detectStuck(events)).toEqual({ pattern: 2, loopStartId: 3 });
    });

    it('does not match when one observation is not an error', () => {
      const events = log(
        ...start,
        view('/missing'),
        failed('File /missing does not exist.'),
        view('/missing'),
        viewed('/missing', 'now it exists'),
        view('/missing'),
        failed('File /missing does not exist.'),
      );
      expect(detectStuck(events)).toBeNull();
    });

    it('does not match different actions that fail', () => {
      const events = log(
        ...start,
        view('/a'),
        failed('no a'),
        view('/b'),
        failed('no b'),
        view('/c'),
        failed('no c'),
      );
      expect(detectStuck(events)).toBeNull();
    });
  });

  describe('pattern 3: 3 identical agent messages with no observation between them', () => {
    const said = (text: string) => agentMessage(text);

    it('matches the same message 3 times, state changes between', () => {
      const events = log(
        ...start,
        said('I will look into it.'),
        agentStateChanged('awaiting_user_input'),
        said('I will look into it.'),
        agentStateChanged('awaiting_user_input'),
        said('I will look into it.'),
      );
      expect(detectStuck(events)).toEqual({ pattern: 3, loopStartId: 1 });
    });

    it('does not match when an observation comes between them', () => {
      const events = log(
        ...start,
        said('I will look into it.'),
        said('I will look into it.'),
        viewed('/a', 'A'),
        said('I will look into it.'),
      );
      expect(detectStuck(events)).toBeNull();
    });

    it('does not match different messages', () => {
      const events = log(...start, said('One.'), said('Two.'), said('One.'));
      expect(detectStuck(events)).toBeNull();
    });
  });

  describe('pattern 4: A/B alternation over the last 6 actions and observations', () => {
    it('matches two steps taking turns 3 times', () => {
      const events = log(
        ...start,
        view('/x'),
        viewed('/x', 'X'),
        ...times(3, view('/a'), viewed('/a', 'A'), run('git status'), ran('git status', 0)),
      );
      expect(detectStuck(events)).toEqual({ pattern: 4, loopStartId: 3 });
    });

    it('does not match when one observation breaks the alternation', () => {
      const events = log(
        ...start,
        ...times(2, view('/a'), viewed('/a', 'A'), run('git status'), ran('git status', 0)),
        view('/a'),
        viewed('/a', 'A'),
        run('git status'),
        ran('git status', 1),
      );
      expect(detectStuck(events)).toBeNull();
    });

    it('does not match 2 rounds only', () => {
      const events = log(...start, ...times(2, view('/a'), viewed('/a', 'A'), view('/b'), viewed('/b', 'B')));
      expect(detectStuck(events)).toBeNull();
    });
  });

  describe('pattern 5: 10 or more consecutive condensations', () => {
    it('matches 10 condensations in a row, requests between them', () => {
      const events = log(
        ...start,
        run('ls'),
        ran('ls', 0),
        ...times(10, condensationRequest(), condensation()),
      );
      expect(detectStuck(events)).toEqual({ pattern: 5, loopStartId: 4 });
    });

    it('does not match 9, or 10 with another step among them', () => {
      expect(detectStuck(log(...start, ...times(9, condensation())))).toBeNull();
      const broken = [...times(5, condensation()), run('ls'), ran('ls', 0), ...times(5, condensation())];
      expect(detectStuck(log(...start, ...broken))).toBeNull();
    });
  });
});

describe('detectStuck on long conversations (it looks back only as far as the patterns need)', () => {
  const varied = (count: number) =>
    Array.from({ length: count }, (_, i) => [run(`step ${i}`), ran(`step ${i}`, 0)]).flat();

  it('finds a loop at the end of 1,000 steps, with its first event', () => {
    const events = log(...start, ...varied(1000), ...times(4, view('/a'), viewed('/a', 'A')));
    expect(detectStuck(events)).toEqual({ pattern: 1, loopStartId: 2001 });
    expect(detectStuck(events.slice(0, -2))).toBeNull();
  });

  it('finds 3 equal messages however many actions without observations lie between them', () => {
    const said = agentMessage('Still thinking.');
    const think: NewEvent = { source: 'agent', message: 'Thinking', action: 'think', args: { thought: 't' } };
    const events = log(...start, ...varied(50), said, ...times(8, think), said, ...times(8, think), said);
    expect(detectStuck(events)).toEqual({ pattern: 3, loopStartId: 101 });
  });

  it('finds 3 equal messages far behind the newest steps, as the spec counts them', () => {
    const said = agentMessage('Still thinking.');
    const events = log(...start, ...varied(20), said, said, said, ...varied(300));
    expect(detectStuck(events)).toEqual({ pattern: 3, loopStartId: 41 });
    const apart = log(...start, said, ...varied(1), said, said, ...varied(300));
    expect(detectStuck(apart)).toBeNull();
  });

  it('sees a condensation that forgot part of a loop, and a long run of condensations', () => {
    const loop = times(4, view('/a'), viewed('/a', 'A'));
    const forget: NewEvent = {
      ...condensation(),
      args: { forgotten_events_start_id: 601, forgotten_events_end_id: 604, summary: '', summary_offset: 1 },
    };
    expect(detectStuck(log(...start, ...varied(300), ...loop, forget))).toBeNull();
    const condensed = log(...start, ...varied(300), ...times(12, condensationRequest(), condensation()));
    expect(detectStuck(condensed)).toEqual({ pattern: 5, loopStartId: 602 });
  });
});

describe('loopDetectionEvent', () => {
  it('is an environment loop_detection observation with the pattern, the start and a hidden mark', () => {
    const event = toNewV0(loopDetectionEvent({ pattern: 1, loopStartId: 7 }));
    expect(event).toMatchObject({
      source: 'environment',
      observation: 'loop_detection',
      extras: { pattern: 1, loop_start_id: 7, hidden: true },
    });
    expect(event.content).toBe(`${STUCK_REASON}: the last 4 actions and their observations were the same.`);
    expect(event.message).toBe(event.content);
  });
});
