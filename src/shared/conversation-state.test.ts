import { describe, expect, it } from 'vitest';
import { conversationState, type ConversationStateInput } from './conversation-state';

const running: ConversationStateInput = {
  status: 'RUNNING',
  start: { stage: 'ready' },
  agent_state: 'awaiting_user_input',
  sandbox_status: 'RUNNING',
};

const failed: ConversationStateInput = {
  status: 'STOPPED',
  start: {
    stage: 'failed',
    failure: { stage: 'setting_up_workspace', message: 'The repository could not be cloned.', kind: 'error' },
  },
  agent_state: null,
  sandbox_status: 'RUNNING',
};

function phaseOf(change: Partial<ConversationStateInput>) {
  return conversationState({ ...running, ...change }).phase;
}

describe('conversationState', () => {
  it('calls a ready conversation whose agent waits for a message idle', () => {
    const state = conversationState(running);
    expect(state).toMatchObject({ phase: 'idle', label: 'Idle', stage: null, blocked: null });
  });

  it('shows the start stage while starting, even when the sandbox already reports itself running', () => {
    const state = conversationState({
      ...running,
      status: 'STARTING',
      start: { stage: 'setting_up_workspace' },
      agent_state: null,
    });
    expect(state).toMatchObject({ phase: 'starting', stage: 'Setting up the workspace' });
    expect(state.blocked).toMatch(/starting/);
    expect(state.details).toContain('Start: Setting up the workspace');
  });

  it('names every stage of a start in words of its own', () => {
    const stages = ['loading_microagents', 'connecting_mcp'] as const;
    const words = stages.map(
      (stage) => conversationState({ ...running, status: 'STARTING', start: { stage } }).stage,
    );
    expect(words).toEqual(['Loading microagents', 'Connecting MCP servers']);
  });

  it('is starting before the first stage is reached, and not after a new start over a failed one', () => {
    expect(conversationState({ ...running, status: 'STARTING', start: null }).stage).toBe(
      'Waiting for the sandbox',
    );
    const restart = conversationState({ ...failed, status: 'STARTING' });
    expect(restart).toMatchObject({ phase: 'starting', stage: 'Waiting for the sandbox' });
  });

  it('believes a start that got through over a sandbox status that still says starting', () => {
    const state = conversationState({
      ...running,
      agent_state: 'awaiting_user_confirmation',
      sandbox_status: 'STARTING',
    });
    expect(state.phase).toBe('needs_you');
    expect(state.details).toContain('Sandbox: starting');
  });

  it('is an error, not running, when the agent stopped on an error', () => {
    const state = conversationState({ ...running, agent_state: 'error' });
    expect(state).toMatchObject({ phase: 'error', label: 'Error' });
  });

  it('is an error when the sandbox failed or went missing, with its reason', () => {
    const state = conversationState({
      ...running,
      sandbox_status: 'MISSING',
      sandbox_error: 'Container gone',
    });
    expect(state).toMatchObject({ phase: 'error', stage: 'Container gone' });
    expect(phaseOf({ sandbox_status: 'ERROR' })).toBe('error');
  });

  it('is stopped when stopped, whatever the sandbox says, and then blocks messages', () => {
    const state = conversationState({ ...running, status: 'STOPPED' });
    expect(state.phase).toBe('stopped');
    expect(state.blocked).toMatch(/Start it/);
    expect(phaseOf({ status: 'STOPPED', agent_state: 'running' })).toBe('stopped');
  });

  it('keeps a failed start visible with its message and stage, and still blocks messages', () => {
    const state = conversationState(failed);
    expect(state).toMatchObject({ phase: 'error', stage: 'The repository could not be cloned.' });
    expect(state.blocked).toMatch(/Start it/);
    expect(state.details).toContain('Start failed while: Setting up the workspace');
  });

  it('needs you while an action waits for confirmation', () => {
    expect(phaseOf({ agent_state: 'awaiting_user_confirmation' })).toBe('needs_you');
  });

  it('needs you while a start waits for your say over the repository’s code, messages still blocked', () => {
    const state = conversationState({
      ...running,
      status: 'STARTING',
      start: { stage: 'setting_up_workspace' },
      agent_state: 'awaiting_user_confirmation',
    });
    expect(state).toMatchObject({ phase: 'needs_you', label: 'Needs you' });
    expect(state.blocked).toMatch(/starting/);
  });

  it('is working while the agent runs or is rate limited', () => {
    expect(phaseOf({ agent_state: 'running' })).toBe('working');
    expect(phaseOf({ agent_state: 'rate_limited' })).toBe('working');
  });

  it('tells a paused agent (still takes messages) from a suspended sandbox (does not)', () => {
    const agent = conversationState({ ...running, agent_state: 'paused' });
    expect(agent).toMatchObject({ phase: 'paused', stage: 'Agent paused', blocked: null });
    const sandbox = conversationState({ ...running, sandbox_status: 'PAUSED' });
    expect(sandbox).toMatchObject({ phase: 'paused', stage: 'Sandbox suspended' });
    expect(sandbox.blocked).toMatch(/Resume/);
  });

  it('lists the underlying facts for a tooltip, without the agent of a stopped conversation', () => {
    expect(conversationState(running).details).toEqual([
      'Conversation: running',
      'Agent: Waiting for your message',
      'Sandbox: running',
    ]);
    const stopped = conversationState({ ...running, status: 'STOPPED' });
    expect(stopped.details.some((line) => line.startsWith('Agent'))).toBe(false);
  });
});
