import { describe, expect, it } from 'vitest';
import { conversationState, type ConversationStateInput } from './conversation-state';

const running: ConversationStateInput = {
  status: 'RUNNING',
  runtime_status: 'STATUS$READY',
  agent_state: 'awaiting_user_input',
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

  it('shows the stage while starting, even when the sandbox already reports itself running', () => {
    const state = conversationState({
      ...running,
      status: 'STARTING',
      runtime_status: 'STATUS$SETTING_UP_WORKSPACE',
      agent_state: null,
    });
    expect(state).toMatchObject({ phase: 'starting', stage: 'Setting up the workspace' });
    expect(state.blocked).toMatch(/starting/);
  });

  it('is starting while the runtime is still setting up, or the sandbox is', () => {
    expect(phaseOf({ runtime_status: 'STATUS$SETTING_UP_SKILLS' })).toBe('starting');
    expect(phaseOf({ runtime_status: null, sandbox_status: 'STARTING' })).toBe('starting');
    expect(phaseOf({ status: 'STARTING', runtime_status: null })).toBe('starting');
  });

  it('believes a ready runtime over a sandbox status that still says starting', () => {
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

  it('is an error when the runtime reports one, with its words as the stage', () => {
    const state = conversationState({ ...running, runtime_status: 'STATUS$ERROR_LLM_AUTHENTICATION' });
    expect(state).toMatchObject({ phase: 'error', stage: 'The language model refused the API key' });
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
    const state = conversationState({ ...running, status: 'STOPPED', runtime_status: null });
    expect(state.phase).toBe('stopped');
    expect(state.blocked).toMatch(/Start it/);
    expect(phaseOf({ status: 'STOPPED', runtime_status: null, agent_state: 'running' })).toBe('stopped');
  });

  it('keeps an error that stopped the conversation visible, and still blocks messages', () => {
    const state = conversationState({ ...running, status: 'STOPPED', runtime_status: 'STATUS$ERROR' });
    expect(state.phase).toBe('error');
    expect(state.blocked).toMatch(/Start it/);
  });

  it('needs you while an action waits for confirmation', () => {
    expect(phaseOf({ agent_state: 'awaiting_user_confirmation' })).toBe('needs_you');
  });

  it('is working while the agent runs, is rate limited or retries the model', () => {
    expect(phaseOf({ agent_state: 'running' })).toBe('working');
    expect(phaseOf({ agent_state: 'rate_limited' })).toBe('working');
    const retry = conversationState({
      ...running,
      agent_state: 'running',
      runtime_status: 'STATUS$LLM_RETRY',
    });
    expect(retry.stage).toBe('Retrying the language model');
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
      'Runtime: Ready',
      'Agent: Waiting for your message',
      'Sandbox: running',
    ]);
    const stopped = conversationState({ ...running, status: 'STOPPED', runtime_status: null });
    expect(stopped.details.some((line) => line.startsWith('Agent'))).toBe(false);
  });
});
