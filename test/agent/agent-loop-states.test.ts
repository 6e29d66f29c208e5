import { afterEach, describe, expect, it } from 'vitest';
import {
  NOT_EXECUTED_FINISHED,
  NOT_EXECUTED_REJECTED,
  REJECTED_TEXT,
  STOPPED_NOT_EXECUTED,
} from '../../src/service/agent/agent-loop';
import type { V0Event } from '../../src/shared/api/events';
import { faults, type ScriptedStep } from '../support/scripted-llm';
import { until } from '../support/until';
import {
  FakeConversation,
  fakeWorkspaceLoop,
  INTERRUPTED_NOTE,
  type LoopOptions,
} from './fake-workspace-loop';

const note = (id: string, text: string) => ({ id, name: 'write_note', args: { text } });
const think = (thought: string) => ({ toolCalls: [{ name: 'think', args: { thought } }] });
const ofKind = (events: V0Event[], observation: string) =>
  events.filter((e) => e.observation === observation);

describe('the agent loop state machine, with a fake workspace and a scripted LLM', () => {
  const closing: (() => unknown)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
  });

  async function agent(steps: ScriptedStep[], options: LoopOptions = {}) {
    const made = await fakeWorkspaceLoop(steps, options);
    closing.push(made.close);
    return { ...made, log: () => made.conversation.log(), states: () => made.conversation.states() };
  }

  it('goes from running to awaiting_user_input when the model replies with a message', async () => {
    const { loop, log, states, conversation } = await agent([{ text: 'Hello.' }, { text: 'Again.' }]);
    loop.start({ content: 'hi' });
    expect(loop.state).toBe('running');
    await loop.settled();
    expect(loop.state).toBe('awaiting_user_input');
    expect(states()).toEqual(['loading', 'running', 'awaiting_user_input']);
    expect(log().at(-2)).toMatchObject({ source: 'agent', action: 'message', message: 'Hello.' });
    expect(conversation.saved.at(-1)?.state).toBe('awaiting_user_input');

    loop.sendMessage('more');
    await loop.settled();
    expect(states().slice(3)).toEqual(['running', 'awaiting_user_input']);
    expect(log().at(-2)).toMatchObject({ action: 'message', message: 'Again.' });
  });

  it('waits without a first message, and runs side effects at once without confirmation mode', async () => {
    const { loop, states, workspace } = await agent([{ toolCalls: [note('n1', 'a')] }, { text: 'Noted.' }]);
    loop.start();
    expect(loop.state).toBe('awaiting_user_input');
    loop.sendMessage('note a');
    await loop.settled();
    expect(workspace.notes).toEqual(['a']);
    expect(states()).toEqual(['loading', 'awaiting_user_input', 'running', 'awaiting_user_input']);
  });

  it('holds a side effect in confirmation mode and runs it once accepted', async () => {
    const { loop, log, states, workspace, llm, conversation } = await agent(
      [{ text: 'On it.', toolCalls: [note('n1', 'a')] }, { text: 'Noted.' }],
      { confirmationMode: true },
    );
    loop.start({ content: 'note a' });
    await loop.settled();
    expect(loop.state).toBe('awaiting_user_confirmation');
    expect(workspace.notes).toEqual([]);
    const asked = log().find((e) => e.action === 'call_tool_mcp');
    expect(asked?.args).toMatchObject({ confirmation_state: 'awaiting_confirmation', thought: 'On it.' });
    expect(conversation.saved.at(-1)?.pending?.call).toMatchObject({ id: 'n1', name: 'write_note' });
    expect(llm.calls).toHaveLength(1);

    await loop.changeState('user_confirmed');
    await loop.settled();
    expect(workspace.notes).toEqual(['a']);
    const confirmed = log().filter((e) => e.action === 'call_tool_mcp')[1];
    expect(confirmed?.args).toMatchObject({ confirmation_state: 'confirmed' });
    expect(ofKind(log(), 'mcp')[0]).toMatchObject({ content: 'Noted: a', cause: confirmed?.id });
    expect(states().slice(2)).toEqual([
      'awaiting_user_confirmation',
      'user_confirmed',
      'running',
      'awaiting_user_input',
    ]);
    expect(conversation.saved.at(-1)?.pending).toBeNull();
  });

  it('rejects a held call with the reason, answers the later calls and waits for the user', async () => {
    const { loop, log, states, workspace, llm } = await agent(
      [{ toolCalls: [note('n1', 'a'), note('n2', 'b')] }, { text: 'Something else then.' }],
      { confirmationMode: true },
    );
    loop.start({ content: 'note a and b' });
    await loop.settled();
    await loop.changeState('user_rejected', 'not now');
    expect(loop.state).toBe('awaiting_user_input');
    expect(workspace.notes).toEqual([]);
    expect(states().slice(2)).toEqual(['awaiting_user_confirmation', 'user_rejected', 'awaiting_user_input']);
    const rejected = log().findLast((e) => e.action === 'call_tool_mcp');
    expect(rejected?.args).toMatchObject({ confirmation_state: 'rejected' });
    expect(ofKind(log(), 'user_rejected')).toMatchObject([
      { content: `${REJECTED_TEXT}\nReason: not now`, cause: rejected?.id },
    ]);
    expect(ofKind(log(), 'error')).toMatchObject([
      { content: NOT_EXECUTED_REJECTED, tool_call_metadata: { tool_call_id: 'n2' } },
    ]);
    await loop.settled();
    expect(llm.calls).toHaveLength(1);
  });

  it('rejects a held call when the user sends a message instead of answering', async () => {
    const { loop, log, states, workspace } = await agent(
      [{ toolCalls: [note('n1', 'a')] }, { text: 'Understood.' }],
      { confirmationMode: true },
    );
    loop.start({ content: 'note a' });
    await loop.settled();
    loop.sendMessage('no, do not');
    await loop.settled();
    expect(workspace.notes).toEqual([]);
    expect(ofKind(log(), 'user_rejected')[0]?.content).toBe(REJECTED_TEXT);
    expect(states().slice(2)).toEqual([
      'awaiting_user_confirmation',
      'user_rejected',
      'awaiting_user_input',
      'running',
      'awaiting_user_input',
    ]);
  });

  it('pauses after the running call and goes on from the queue when resumed', async () => {
    const { loop, states, workspace, llm } = await agent([
      { toolCalls: [note('n1', 'a'), note('n2', 'b')] },
      { text: 'Both noted.' },
    ]);
    const held = workspace.hold();
    loop.start({ content: 'note a and b' });
    await held.started;
    await loop.changeState('paused');
    held.release();
    await loop.settled();
    expect(loop.state).toBe('paused');
    expect(workspace.notes).toEqual(['a']);
    expect(llm.calls).toHaveLength(1);

    await loop.changeState('running');
    await loop.settled();
    expect(workspace.notes).toEqual(['a', 'b']);
    expect(states()).toEqual(['loading', 'running', 'paused', 'running', 'awaiting_user_input']);
  });

  it('drops a reply that arrives while paused and asks the model again when resumed', async () => {
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const { loop, log, llm } = await agent([
      async () => {
        await answered;
        return { text: 'Late reply.' };
      },
      { text: 'Fresh reply.' },
    ]);
    loop.start({ content: 'hi' });
    await llm.waitForCalls(1);
    await loop.changeState('paused');
    answer();
    await loop.settled();
    expect(loop.state).toBe('paused');
    expect(log().some((e) => e.message === 'Late reply.')).toBe(false);

    await loop.changeState('running');
    await loop.settled();
    expect(llm.calls).toHaveLength(2);
    expect(log().filter((e) => e.action === 'message' && e.source === 'agent')).toMatchObject([
      { message: 'Fresh reply.' },
    ]);
    expect(loop.state).toBe('awaiting_user_input');
  });

  it('stops a running call: interrupts it, records its result and answers the queued calls', async () => {
    const { loop, log, states, workspace, llm } = await agent([
      { toolCalls: [note('n1', 'a'), note('n2', 'b')] },
    ]);
    const held = workspace.hold();
    loop.start({ content: 'note a and b' });
    await held.started;
    await loop.changeState('stopped');
    expect(loop.state).toBe('stopped');
    await loop.settled();
    expect(workspace.interrupts).toBe(1);
    expect(workspace.notes).toEqual([]);
    expect(ofKind(log(), 'mcp')).toMatchObject([{ content: INTERRUPTED_NOTE }]);
    expect(ofKind(log(), 'error')).toMatchObject([
      { content: STOPPED_NOT_EXECUTED, tool_call_metadata: { tool_call_id: 'n2' } },
    ]);
    expect(states()).toEqual(['loading', 'running', 'stopped']);
    expect(llm.calls).toHaveLength(1);
  });

  it('stops a model call in flight by aborting it, without an error', async () => {
    const { loop, states, llm, statuses } = await agent([faults.hang()]);
    loop.start({ content: 'hi' });
    await llm.waitForCalls(1);
    await loop.stop();
    await loop.settled();
    expect(loop.state).toBe('stopped');
    expect(states()).toEqual(['loading', 'running', 'stopped']);
    expect(statuses.filter((s) => s.type === 'error')).toEqual([]);
    await until(
      async () => llm.calls[0]?.clientClosed,
      (closed) => closed === true,
      'the aborted model call to close its connection',
    );
  });

  it('enters error with the reason when the model call fails, and goes on after a message', async () => {
    const { loop, log, states, statuses } = await agent([faults.unauthorized(), { text: 'Back.' }]);
    loop.start({ content: 'hi' });
    await loop.settled();
    expect(loop.state).toBe('error');
    const failed = log().findLast((e) => e.observation === 'agent_state_changed');
    expect(failed?.extras?.reason).toContain('Incorrect API key provided');
    expect(statuses.filter((s) => s.type === 'error')).toMatchObject([
      { id: 'STATUS$ERROR_LLM_AUTHENTICATION' },
    ]);

    loop.sendMessage('try again');
    await loop.settled();
    expect(states().slice(2)).toEqual(['error', 'running', 'awaiting_user_input']);
  });

  it('records a tool that throws as an error observation and goes on', async () => {
    const { loop, log, workspace } = await agent([{ toolCalls: [note('n1', 'a')] }, { text: 'It failed.' }]);
    workspace.failNext('disk full');
    loop.start({ content: 'note a' });
    await loop.settled();
    expect(loop.state).toBe('awaiting_user_input');
    const action = log().find((e) => e.action === 'call_tool_mcp');
    expect(ofKind(log(), 'error')).toMatchObject([{ content: 'disk full', cause: action?.id }]);
  });

  it('finishes with the finish tool and answers the calls after it', async () => {
    const { loop, log, states, workspace, llm } = await agent([
      {
        toolCalls: [{ id: 'f', name: 'finish', args: { message: 'All done.' } }, note('n2', 'late')],
      },
    ]);
    loop.start({ content: 'finish' });
    await loop.settled();
    expect(loop.state).toBe('finished');
    expect(log().find((e) => e.action === 'finish')).toMatchObject({
      message: 'All done.',
      args: { final_thought: 'All done.' },
    });
    expect(ofKind(log(), 'error')).toMatchObject([{ content: NOT_EXECUTED_FINISHED }]);
    expect(workspace.notes).toEqual([]);
    expect(states()).toEqual(['loading', 'running', 'finished']);
    expect(llm.calls).toHaveLength(1);
  });

  it('enters error at max_iterations and grants another round after a message', async () => {
    const { loop, log, llm } = await agent([think('one'), think('two'), think('three'), { text: 'After.' }], {
      maxIterations: 2,
    });
    loop.start({ content: 'think' });
    await loop.settled();
    expect(loop.state).toBe('error');
    expect(llm.calls).toHaveLength(2);
    expect(log().findLast((e) => e.observation === 'agent_state_changed')?.extras).toMatchObject({
      reason: 'Agent reached maximum iteration. Current iteration: 2, max iteration: 2',
    });

    loop.sendMessage('go on');
    await loop.settled();
    expect(loop.state).toBe('awaiting_user_input');
    expect(llm.calls).toHaveLength(4);
  });

  it('resumes after a restart: a held call stays held, and running comes back paused', async () => {
    const conversation = new FakeConversation();
    closing.push(() => conversation.close());
    const first = await agent([{ toolCalls: [note('n1', 'a')] }], { confirmationMode: true, conversation });
    first.loop.start({ content: 'note a' });
    await first.loop.settled();
    expect(first.loop.state).toBe('awaiting_user_confirmation');
    const held = conversation.saved.at(-1);

    const second = await agent([{ text: 'Noted.' }], { confirmationMode: true, conversation });
    second.loop.resume(held as NonNullable<typeof held>);
    expect(second.loop.state).toBe('awaiting_user_confirmation');
    await second.loop.changeState('user_confirmed');
    await second.loop.settled();
    expect(second.workspace.notes).toEqual(['a']);
    expect(second.loop.state).toBe('awaiting_user_input');

    const third = await agent([{ text: 'Resumed.' }], { conversation });
    third.loop.resume({ ...(held as NonNullable<typeof held>), state: 'running', pending: null });
    expect(third.loop.state).toBe('paused');
    await third.loop.changeState('running');
    await third.loop.settled();
    expect(conversation.log().at(-2)).toMatchObject({ action: 'message', message: 'Resumed.' });
  });
});
