import { describe, expect, it } from 'vitest';
import { START_STAGES, type StartStage } from '../../shared/api/start-stage';
import { startFailureOf, StartFailed, startTaskStatusOf, statusUpdateOf } from './start-status';

describe('the views of a start stage', () => {
  it('shows each stage as its V0 runtime status and its V1 start-task stage', () => {
    const views = START_STAGES.map((stage) => {
      const { id, message } = statusUpdateOf({ stage });
      return [stage, id, message, startTaskStatusOf({ stage })];
    });
    expect(views).toEqual([
      ['starting_sandbox', 'STATUS$STARTING_RUNTIME', 'Starting the sandbox...', 'WAITING_FOR_SANDBOX'],
      ['sandbox_running', 'STATUS$RUNTIME_STARTED', 'The sandbox is running.', 'WAITING_FOR_SANDBOX'],
      [
        'setting_up_workspace',
        'STATUS$SETTING_UP_WORKSPACE',
        'Setting up the workspace...',
        'PREPARING_REPOSITORY',
      ],
      [
        'setting_up_git_hooks',
        'STATUS$SETTING_UP_GIT_HOOKS',
        'Setting up git hooks...',
        'SETTING_UP_GIT_HOOKS',
      ],
      ['loading_microagents', 'STATUS$SETTING_UP_SKILLS', 'Loading microagents...', 'SETTING_UP_SKILLS'],
      ['connecting_mcp', 'STATUS$SETTING_UP_SKILLS', 'Connecting MCP servers...', 'SETTING_UP_SKILLS'],
      ['ready', 'STATUS$READY', 'The agent is ready.', 'STARTING_CONVERSATION'],
    ]);
  });

  it('shows a failure as an error status of its kind and an ERROR task', () => {
    const auth: StartStage = {
      stage: 'failed',
      failure: startFailureOf(
        new StartFailed('git_auth', 'The GitHub token was rejected'),
        'setting_up_workspace',
      ),
    };
    expect(auth.failure).toEqual({
      stage: 'setting_up_workspace',
      message: 'The GitHub token was rejected',
      kind: 'git_auth',
    });
    expect(statusUpdateOf(auth)).toEqual({
      type: 'error',
      id: 'STATUS$GIT_PROVIDER_AUTHENTICATION_ERROR',
      message: 'The GitHub token was rejected',
    });
    const other: StartStage = {
      stage: 'failed',
      failure: startFailureOf(new Error('boom'), 'starting_sandbox'),
    };
    expect(statusUpdateOf(other)).toEqual({ type: 'error', id: 'STATUS$ERROR', message: 'boom' });
    expect(startTaskStatusOf(other)).toBe('ERROR');
  });
});
