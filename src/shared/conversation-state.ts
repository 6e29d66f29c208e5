import type { ConversationStatus } from './api/conversations';
import type { SandboxStatus } from './api/sandboxes';

/**
 * The one state a person sees for a conversation, whatever page shows it. The API reports four overlapping
 * facts (the conversation's status, its runtime status, the agent's state and its sandbox's status) that can
 * briefly disagree; this module is the only place that reconciles them.
 */
export type ConversationPhase =
  'starting' | 'working' | 'needs_you' | 'idle' | 'paused' | 'stopped' | 'error';

export type StateTone = 'info' | 'ok' | 'warning' | 'error' | 'neutral';

export interface ConversationStateInput {
  status: ConversationStatus;
  runtime_status: string | null;
  agent_state: string | null;
  /** The status of the conversation's sandbox, when known. */
  sandbox_status?: SandboxStatus | null;
  /** Why the sandbox is in ERROR or MISSING, when known. */
  sandbox_error?: string | null;
}

export interface ConversationState {
  phase: ConversationPhase;
  /** One or two words for the pill. */
  label: string;
  tone: StateTone;
  /** While starting: the current stage; on an error: what went wrong. */
  stage: string | null;
  /** The underlying facts, one per line, for a tooltip. */
  details: string[];
  /** Whether a message can be sent now; when not, `blocked` says why. */
  blocked: string | null;
}

/** The service's runtime status ids (`STATUS$…`) in plain words. */
const RUNTIME_STATUS: Record<string, string> = {
  STATUS$STARTING_RUNTIME: 'Starting the sandbox',
  STATUS$RUNTIME_STARTED: 'Sandbox started',
  STATUS$SETTING_UP_WORKSPACE: 'Setting up the workspace',
  STATUS$SETTING_UP_GIT_HOOKS: 'Setting up git hooks',
  STATUS$SETTING_UP_SKILLS: 'Loading microagents and tools',
  STATUS$READY: 'Ready',
  STATUS$STOPPED: 'Stopped',
  STATUS$LLM_RETRY: 'Retrying the language model',
  STATUS$ERROR: 'Something went wrong',
  STATUS$ERROR_RUNTIME_DISCONNECTED: 'The sandbox was lost',
  STATUS$GIT_PROVIDER_AUTHENTICATION_ERROR: 'The git provider refused the token',
  STATUS$ERROR_LLM_AUTHENTICATION: 'The language model refused the API key',
  STATUS$ERROR_LLM_SERVICE_UNAVAILABLE: 'The language model service is unavailable',
  STATUS$ERROR_LLM_INTERNAL_SERVER_ERROR: 'The language model service failed',
  STATUS$ERROR_LLM_OUT_OF_CREDITS: 'The language model account is out of credits',
  STATUS$ERROR_LLM_CONTENT_POLICY_VIOLATION: 'The language model refused the request (content policy)',
};

/** Runtime statuses that mean the conversation is still getting its sandbox and workspace ready. */
const STARTING_STAGES: ReadonlySet<string> = new Set([
  'STATUS$STARTING_RUNTIME',
  'STATUS$RUNTIME_STARTED',
  'STATUS$SETTING_UP_WORKSPACE',
  'STATUS$SETTING_UP_GIT_HOOKS',
  'STATUS$SETTING_UP_SKILLS',
]);

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

const SANDBOX_WORDS: Record<SandboxStatus, string> = {
  STARTING: 'starting',
  RUNNING: 'running',
  PAUSED: 'suspended',
  ERROR: 'failed',
  MISSING: 'missing',
};

const WORKING_AGENT_STATES: ReadonlySet<string> = new Set([
  'loading',
  'running',
  'rate_limited',
  'user_confirmed',
]);

function isErrorStatus(runtimeStatus: string | null): boolean {
  return runtimeStatus !== null && runtimeStatus.includes('ERROR');
}

function factsOf(input: ConversationStateInput): string[] {
  const facts = [`Conversation: ${input.status.toLowerCase()}`];
  const runtime = runtimeStatusText(input.runtime_status);
  if (runtime) facts.push(`Runtime: ${runtime}`);
  if (input.status !== 'STOPPED') {
    const agent = agentStateText(input.agent_state);
    if (agent) facts.push(`Agent: ${agent}`);
  }
  if (input.sandbox_status) facts.push(`Sandbox: ${SANDBOX_WORDS[input.sandbox_status]}`);
  if (input.sandbox_error) facts.push(`Sandbox problem: ${input.sandbox_error}`);
  return facts;
}

const LABELS: Record<ConversationPhase, string> = {
  starting: 'Starting',
  working: 'Working',
  needs_you: 'Needs you',
  idle: 'Idle',
  paused: 'Paused',
  stopped: 'Stopped',
  error: 'Error',
};

const TONES: Record<ConversationPhase, StateTone> = {
  starting: 'info',
  working: 'info',
  needs_you: 'warning',
  idle: 'ok',
  paused: 'neutral',
  stopped: 'neutral',
  error: 'error',
};

function phaseAndStage(input: ConversationStateInput): [ConversationPhase, string | null] {
  const { status, runtime_status: runtime, agent_state: agent, sandbox_status: sandbox } = input;
  if (status === 'STOPPED') {
    return isErrorStatus(runtime) ? ['error', runtimeStatusText(runtime)] : ['stopped', null];
  }
  if (sandbox === 'ERROR' || sandbox === 'MISSING') {
    return ['error', input.sandbox_error ?? `The sandbox is ${SANDBOX_WORDS[sandbox]}`];
  }
  if (isErrorStatus(runtime)) return ['error', runtimeStatusText(runtime)];
  if (agent === 'error') return ['error', 'The agent stopped on an error'];
  if (status === 'STARTING' || (runtime !== null && STARTING_STAGES.has(runtime))) {
    return ['starting', runtimeStatusText(runtime ?? 'STATUS$STARTING_RUNTIME')];
  }
  // A ready runtime outranks a sandbox status that has not caught up (it reports STARTING until probed).
  if (sandbox === 'STARTING' && runtime === null) return ['starting', 'Starting the sandbox'];
  if (sandbox === 'PAUSED') return ['paused', 'Sandbox suspended'];
  if (agent === 'paused') return ['paused', 'Agent paused'];
  // The confirmation panel says what waits; the pill need not.
  if (agent === 'awaiting_user_confirmation') return ['needs_you', null];
  if (agent !== null && WORKING_AGENT_STATES.has(agent)) {
    return ['working', runtime === 'STATUS$LLM_RETRY' ? runtimeStatusText(runtime) : null];
  }
  return ['idle', null];
}

const BLOCKED: Partial<Record<ConversationPhase, string>> = {
  starting: 'The conversation is starting; you can write once it is ready.',
  stopped: 'The conversation is stopped. Start it to send messages.',
  paused: 'The sandbox is suspended. Resume it to send messages.',
};

/** The conversation's one state, derived from what the API reports. */
export function conversationState(input: ConversationStateInput): ConversationState {
  const [phase, stage] = phaseAndStage(input);
  let blocked = BLOCKED[phase] ?? null;
  // A paused agent still takes messages (they resume it); only a suspended sandbox cannot.
  if (phase === 'paused' && input.sandbox_status !== 'PAUSED') blocked = null;
  if (phase === 'error' && input.status === 'STOPPED') blocked = BLOCKED.stopped ?? null;
  return { phase, label: LABELS[phase], tone: TONES[phase], stage, details: factsOf(input), blocked };
}
