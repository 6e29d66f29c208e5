import { describe, expect, it } from 'vitest';
import type { DockhandEvent } from '../events/model/dockhand-event';
import { fromV0 } from '../events/model/v0-codec';
import {
  nextReplayTurn,
  parseTrajectory,
  REPLAY_FIRST_MESSAGE_ERROR,
  ReplayError,
  replayExhausted,
  startReplay,
  type ReplayStep,
} from './replay';
import { ToolRegistry } from './tools/registry';

const tools = new ToolRegistry();

function userMessage(id: number, content: string, waitForResponse = false) {
  return {
    id,
    source: 'user',
    action: 'message',
    message: content,
    args: { content, image_urls: [], wait_for_response: waitForResponse },
  };
}

/** An OpenHands `run` action with its observation; the arguments only in `model_response`. */
function command(id: number, text: string, exitCode: number) {
  const callId = `toolu_${id}`;
  return [
    {
      id,
      source: 'agent',
      action: 'run',
      message: `Running command: ${text}`,
      args: { command: text, is_input: false, thought: `run ${text}`, security_risk: 0 },
      tool_call_metadata: {
        function_name: 'execute_bash',
        tool_call_id: callId,
        total_calls_in_response: 1,
        model_response: {
          id: `resp_${id}`,
          choices: [
            {
              message: {
                tool_calls: [
                  {
                    id: callId,
                    function: { name: 'execute_bash', arguments: JSON.stringify({ command: text }) },
                  },
                ],
              },
            },
          ],
        },
      },
    },
    {
      id: id + 1,
      source: 'agent',
      observation: 'run',
      cause: id,
      content: '',
      extras: { command: text, metadata: { exit_code: exitCode } },
      tool_call_metadata: { function_name: 'execute_bash', tool_call_id: callId },
    },
  ];
}

const TRAJECTORY = [
  { id: 0, source: 'environment', observation: 'agent_state_changed', extras: { agent_state: 'loading' } },
  { id: 1, source: 'agent', action: 'system', args: { content: 'prompt' } },
  userMessage(2, 'make a file', true),
  { id: 3, source: 'environment', observation: 'recall', content: 'ctx' },
  ...command(4, 'touch a.txt', 0),
  { id: 6, source: 'agent', action: 'message', args: { content: 'done?', wait_for_response: true } },
  userMessage(7, 'yes, finish'),
  {
    id: 8,
    source: 'agent',
    action: 'finish',
    args: { final_thought: 'All done.', thought: '' },
    tool_call_metadata: { function_name: 'finish', tool_call_id: 'toolu_8', total_calls_in_response: 1 },
  },
];

describe('parseTrajectory', () => {
  it('keeps user messages and agent actions with tool_call_metadata, with recorded exit codes', () => {
    const steps = parseTrajectory(JSON.stringify(TRAJECTORY));
    expect(steps.map((s) => [s.kind, s.recordedId])).toEqual([
      ['message', 2],
      ['action', 4],
      ['message', 7],
      ['action', 8],
    ]);
    expect(steps[0]).toMatchObject({ content: 'make a file', waitForResponse: false });
    expect(steps[1]).toMatchObject({
      functionName: 'execute_bash',
      callArguments: { command: 'touch a.txt' },
      exitCode: 0,
    });
    expect(steps[3]).toMatchObject({ functionName: 'finish', callArguments: null, exitCode: null });
  });

  it('keeps wait_for_response only on the last step', () => {
    const steps = parseTrajectory(JSON.stringify([userMessage(0, 'a', true), userMessage(1, 'b', true)]));
    expect(steps.map((s) => (s.kind === 'message' ? s.waitForResponse : null))).toEqual([false, true]);
  });

  it('refuses a trajectory that does not start with a user message', () => {
    const cases = [
      [],
      [{ id: 0, source: 'agent', action: 'message', args: { content: 'hi' } }],
      [...command(0, 'ls', 0), userMessage(2, 'late')],
      [1, 'text', null],
    ];
    for (const trajectory of cases) {
      expect(() => parseTrajectory(JSON.stringify(trajectory))).toThrow(
        new ReplayError(REPLAY_FIRST_MESSAGE_ERROR),
      );
    }
  });
});

/** A command's result as the log reads a V0 row. */
function runObservation(id: number, toolCallId: string, exitCode: number): DockhandEvent {
  return fromV0({
    id,
    timestamp: '',
    source: 'agent',
    message: '',
    observation: 'run',
    content: '',
    extras: { metadata: { exit_code: exitCode } },
    tool_call_metadata: { tool_call_id: toolCallId },
  });
}

describe('nextReplayTurn', () => {
  const steps = (): ReplayStep[] => parseTrajectory(JSON.stringify(TRAJECTORY));

  it('plays the recorded steps as calls and messages, then ends', () => {
    const { first, progress } = startReplay(steps(), null);
    expect(first.content).toBe('make a file');
    const call = nextReplayTurn(progress, [], tools);
    expect(call).toMatchObject({
      kind: 'call',
      call: { id: 'replay_4', name: 'execute_bash', args: { command: 'touch a.txt' } },
      thought: 'run touch a.txt',
      metadata: { tool_call_id: 'replay_4', function_name: 'execute_bash', total_calls_in_response: 1 },
    });
    const history = [runObservation(10, 'replay_4', 0)];
    expect(nextReplayTurn(progress, history, tools)).toMatchObject({
      kind: 'message',
      step: { content: 'yes, finish' },
    });
    expect(nextReplayTurn(progress, history, tools)).toMatchObject({
      kind: 'call',
      call: { name: 'finish', args: { message: 'All done.' } },
    });
    expect(replayExhausted(progress)).toBe(true);
    expect(nextReplayTurn(progress, history, tools)).toEqual({ kind: 'end', warning: null });
  });

  it('ends with a warning when a command exits otherwise than recorded', () => {
    const { progress } = startReplay(steps(), null);
    nextReplayTurn(progress, [], tools);
    expect(nextReplayTurn(progress, [runObservation(10, 'replay_4', 1)], tools)).toEqual({
      kind: 'end',
      warning: 'Replay diverged at recorded event 4',
    });
  });

  it('stops at an action with a masked secret', () => {
    const trajectory = [userMessage(0, 'go'), ...command(1, 'echo <secret_hidden>', 0)];
    const { progress } = startReplay(parseTrajectory(JSON.stringify(trajectory)), null);
    expect(nextReplayTurn(progress, [], tools)).toEqual({
      kind: 'end',
      warning: 'Replay stopped at recorded event 1: it contains a masked secret (<secret_hidden>)',
    });
  });

  it('takes the arguments from the action when the recording has no model response', () => {
    const trajectory = [
      userMessage(0, 'look'),
      {
        id: 1,
        source: 'agent',
        action: 'read',
        args: { path: '/workspace/project/a.txt', view_range: [1, 2], security_risk: 0, thought: '' },
        tool_call_metadata: { function_name: 'str_replace_editor', tool_call_id: 'x' },
      },
    ];
    const { progress } = startReplay(parseTrajectory(JSON.stringify(trajectory)), null);
    expect(nextReplayTurn(progress, [], tools)).toMatchObject({
      kind: 'call',
      call: {
        args: { command: 'view', path: '/workspace/project/a.txt', view_range: [1, 2], security_risk: 'LOW' },
      },
    });
  });
});
