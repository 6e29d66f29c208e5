import type { ConversationStatus } from '../../../shared/api/conversations';
import type { Tone } from '../ui/tone';

/** The service's runtime status ids (`STATUS$…`) in plain words. */
const RUNTIME_STATUS: Record<string, string> = {
  STATUS$STARTING_RUNTIME: 'Starting the sandbox…',
  STATUS$RUNTIME_STARTED: 'Sandbox started',
  STATUS$SETTING_UP_WORKSPACE: 'Setting up the workspace…',
  STATUS$SETTING_UP_GIT_HOOKS: 'Setting up git hooks…',
  STATUS$SETTING_UP_SKILLS: 'Loading microagents and tools…',
  STATUS$READY: 'Ready',
  STATUS$STOPPED: 'Stopped',
  STATUS$LLM_RETRY: 'Retrying the language model…',
  STATUS$ERROR: 'Something went wrong',
  STATUS$ERROR_RUNTIME_DISCONNECTED: 'The sandbox was lost',
  STATUS$GIT_PROVIDER_AUTHENTICATION_ERROR: 'The git provider refused the token',
  STATUS$ERROR_LLM_AUTHENTICATION: 'The language model refused the API key',
  STATUS$ERROR_LLM_SERVICE_UNAVAILABLE: 'The language model service is unavailable',
  STATUS$ERROR_LLM_INTERNAL_SERVER_ERROR: 'The language model service failed',
  STATUS$ERROR_LLM_OUT_OF_CREDITS: 'The language model account is out of credits',
  STATUS$ERROR_LLM_CONTENT_POLICY_VIOLATION: 'The language model refused the request (content policy)',
};

/** Words for a runtime status; an id this version does not know is shown without its prefix. */
export function runtimeStatusText(id: string | null): string | null {
  if (!id) return null;
  return (
    RUNTIME_STATUS[id] ??
    id
      .replace(/^STATUS\$/, '')
      .replaceAll('_', ' ')
      .toLowerCase()
  );
}

export function runtimeStatusTone(id: string | null): Tone | 'info' {
  if (!id) return 'info';
  if (id.includes('ERROR')) return 'error';
  return id === 'STATUS$READY' ? 'ok' : 'info';
}

const AGENT_STATE: Record<string, string> = {
  loading: 'Loading',
  running: 'Working',
  awaiting_user_input: 'Waiting for your message',
  paused: 'Paused',
  stopped: 'Stopped',
  finished: 'Finished',
  rejected: 'Gave up',
  error: 'Stopped by an error',
  awaiting_user_confirmation: 'Waiting for your confirmation',
  user_confirmed: 'Confirmed',
  user_rejected: 'Rejected',
  rate_limited: 'Rate limited, retrying',
};

export function agentStateText(state: string | null): string | null {
  if (!state) return null;
  return AGENT_STATE[state] ?? state.replaceAll('_', ' ');
}

/** Agent states in which Pause makes sense; `paused` is the one Resume leaves. */
export const PAUSABLE_STATES: ReadonlySet<string> = new Set(['running', 'rate_limited']);

export const STATUS_TONES: Record<ConversationStatus, Tone | 'info'> = {
  STARTING: 'info',
  RUNNING: 'ok',
  STOPPED: 'warning',
};

export const STATUS_LABELS: Record<ConversationStatus, string> = {
  STARTING: 'Starting',
  RUNNING: 'Running',
  STOPPED: 'Stopped',
};

export type RiskLevel = 'LOW' | 'MEDIUM' | 'HIGH' | 'UNKNOWN';

/** `security_risk` (0 low, 1 medium, 2 high, anything else unknown) as a level. */
export function riskLevel(risk: unknown): RiskLevel {
  if (risk === 0) return 'LOW';
  if (risk === 1) return 'MEDIUM';
  if (risk === 2) return 'HIGH';
  return 'UNKNOWN';
}

/** What each kind of a repository's own code is called. */
export const REPOSITORY_CODE_WORDS: Record<string, string> = {
  setup_script: 'setup script',
  git_hook: 'git hook',
  mcp_server: 'MCP server',
};
