import type { StartTaskStatus } from '../../shared/api/app-conversations';
import type {
  StartFailureInfo,
  StartFailureKind,
  StartStage,
  StartStageName,
} from '../../shared/api/start-stage';

/** The runtime status ids of the start pipeline (api-contract §14). */
export const RUNTIME_STATUS = {
  startingRuntime: 'STATUS$STARTING_RUNTIME',
  runtimeStarted: 'STATUS$RUNTIME_STARTED',
  settingUpWorkspace: 'STATUS$SETTING_UP_WORKSPACE',
  settingUpGitHooks: 'STATUS$SETTING_UP_GIT_HOOKS',
  settingUpSkills: 'STATUS$SETTING_UP_SKILLS',
  ready: 'STATUS$READY',
  stopped: 'STATUS$STOPPED',
  error: 'STATUS$ERROR',
  gitAuthentication: 'STATUS$GIT_PROVIDER_AUTHENTICATION_ERROR',
} as const;

/** Each stage as V0 sees it (the runtime status id and its message) and as a V1 start task does. */
const STAGE_VIEWS: Record<StartStageName, { statusId: string; message: string; task: StartTaskStatus }> = {
  starting_sandbox: {
    statusId: RUNTIME_STATUS.startingRuntime,
    message: 'Starting the sandbox...',
    task: 'WAITING_FOR_SANDBOX',
  },
  sandbox_running: {
    statusId: RUNTIME_STATUS.runtimeStarted,
    message: 'The sandbox is running.',
    task: 'WAITING_FOR_SANDBOX',
  },
  setting_up_workspace: {
    statusId: RUNTIME_STATUS.settingUpWorkspace,
    message: 'Setting up the workspace...',
    task: 'PREPARING_REPOSITORY',
  },
  setting_up_git_hooks: {
    statusId: RUNTIME_STATUS.settingUpGitHooks,
    message: 'Setting up git hooks...',
    task: 'SETTING_UP_GIT_HOOKS',
  },
  loading_microagents: {
    statusId: RUNTIME_STATUS.settingUpSkills,
    message: 'Loading microagents...',
    task: 'SETTING_UP_SKILLS',
  },
  connecting_mcp: {
    statusId: RUNTIME_STATUS.settingUpSkills,
    message: 'Connecting MCP servers...',
    task: 'SETTING_UP_SKILLS',
  },
  ready: { statusId: RUNTIME_STATUS.ready, message: 'The agent is ready.', task: 'STARTING_CONVERSATION' },
};

const FAILURE_STATUS: Record<StartFailureKind, string> = {
  git_auth: RUNTIME_STATUS.gitAuthentication,
  error: RUNTIME_STATUS.error,
};

/** The V0 runtime status id of a stage, or of a failure. */
export function runtimeStatusOf(stage: StartStage): string {
  return stage.stage === 'failed' ? FAILURE_STATUS[stage.failure.kind] : STAGE_VIEWS[stage.stage].statusId;
}

/** The V0 status update a stage is shown as (`info` with the stage's message, or the failure's `error`). */
export function statusUpdateOf(stage: StartStage): { type: 'info' | 'error'; id: string; message: string } {
  return stage.stage === 'failed'
    ? { type: 'error', id: runtimeStatusOf(stage), message: stage.failure.message }
    : { type: 'info', id: runtimeStatusOf(stage), message: STAGE_VIEWS[stage.stage].message };
}

/** A note during a stage (a clone under way, a warning): an `info` status with the stage's id. */
export function noteOf(
  stage: StartStageName,
  message: string,
): { type: 'info'; id: string; message: string } {
  return { type: 'info', id: STAGE_VIEWS[stage].statusId, message };
}

/** The V1 start-task stage a start stage reaches (`ERROR` for a failure; `READY` follows `ready` itself). */
export function startTaskStatusOf(stage: StartStage): StartTaskStatus {
  return stage.stage === 'failed' ? 'ERROR' : STAGE_VIEWS[stage.stage].task;
}

/** A start step failed: the conversation stops with this kind of failure and message. */
export class StartFailed extends Error {
  constructor(
    readonly kind: StartFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'StartFailed';
  }
}

/** What the user is told of an error that ended the start in `stage`. */
export function startFailureOf(error: unknown, stage: StartStageName): StartFailureInfo {
  return {
    stage,
    message: error instanceof Error ? error.message : String(error),
    kind: error instanceof StartFailed ? error.kind : 'error',
  };
}
