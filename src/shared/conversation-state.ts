import type { ConversationStatus, DockhandState } from './api/conversations';
import type { SandboxStatus } from './api/sandboxes';
import type { StartStage, StartStageName } from './api/start-stage';

/**
 * The one state a person sees for a conversation, whatever page shows it. A conversation has four
 * overlapping facts (its status, where its start got to, its agent's state and its sandbox's status) that
 * can briefly disagree; this module is the only place that reconciles them. The service computes it
 * (`dockhand_state` of a conversation's info); pages show what the service computed.
 */
export type ConversationState = DockhandState;
export type ConversationPhase = DockhandState['phase'];

export interface ConversationStateInput {
  status: ConversationStatus;
  /** Where the conversation's last start got to while the service ran; null before one began. */
  start: StartStage | null;
  agent_state: string | null;
  /** The status of the conversation's sandbox, when known. */
  sandbox_status?: SandboxStatus | null;
  /** Why the sandbox is in ERROR or MISSING, when known. */
  sandbox_error?: string | null;
}

/** Each start stage in plain words. */
const STAGE_WORDS: Record<StartStageName, string> = {
  starting_sandbox: 'Waiting for the sandbox',
  sandbox_running: 'Sandbox started',
  setting_up_workspace: 'Setting up the workspace',
  setting_up_git_hooks: 'Setting up git hooks',
  loading_microagents: 'Loading microagents',
  connecting_mcp: 'Connecting MCP servers',
  ready: 'Ready',
};

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

function factsOf(input: ConversationStateInput): string[] {
  const facts = [`Conversation: ${input.status.toLowerCase()}`];
  const start = input.start;
  if (start?.stage === 'failed') facts.push(`Start failed while: ${STAGE_WORDS[start.failure.stage]}`);
  else if (start && input.status === 'STARTING') facts.push(`Start: ${STAGE_WORDS[start.stage]}`);
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

const TONES: Record<ConversationPhase, DockhandState['tone']> = {
  starting: 'info',
  working: 'info',
  needs_you: 'warning',
  idle: 'ok',
  paused: 'neutral',
  stopped: 'neutral',
  error: 'error',
};

function phaseAndStage(input: ConversationStateInput): [ConversationPhase, string | null] {
  const { status, start, agent_state: agent, sandbox_status: sandbox } = input;
  // A failed start stops the conversation; its failure stays the state until the next start.
  if (status === 'STOPPED')
    return start?.stage === 'failed' ? ['error', start.failure.message] : ['stopped', null];
  if (sandbox === 'ERROR' || sandbox === 'MISSING') {
    return ['error', input.sandbox_error ?? `The sandbox is ${SANDBOX_WORDS[sandbox]}`];
  }
  if (agent === 'error') return ['error', 'The agent stopped on an error'];
  if (status === 'STARTING') {
    // The start waits for the user's say over the repository's own code: it is theirs to move.
    if (agent === 'awaiting_user_confirmation') return ['needs_you', null];
    return ['starting', STAGE_WORDS[start && start.stage !== 'failed' ? start.stage : 'starting_sandbox']];
  }
  // Past its start, a sandbox that still reports STARTING (until it is probed) has not caught up: not asked.
  if (sandbox === 'PAUSED') return ['paused', 'Sandbox suspended'];
  if (agent === 'paused') return ['paused', 'Agent paused'];
  // The confirmation panel says what waits; the pill need not.
  if (agent === 'awaiting_user_confirmation') return ['needs_you', null];
  if (agent !== null && WORKING_AGENT_STATES.has(agent)) return ['working', null];
  return ['idle', null];
}

const BLOCKED: Partial<Record<ConversationPhase, string>> = {
  starting: 'The conversation is starting; you can write once it is ready.',
  stopped: 'The conversation is stopped. Start it to send messages.',
  paused: 'The sandbox is suspended. Resume it to send messages.',
};

/** The conversation's one state (computed by the service, the only caller besides tests). */
export function conversationState(input: ConversationStateInput): ConversationState {
  const [phase, stage] = phaseAndStage(input);
  let blocked = BLOCKED[phase] ?? null;
  // A paused agent still takes messages (they resume it); only a suspended sandbox cannot.
  if (phase === 'paused' && input.sandbox_status !== 'PAUSED') blocked = null;
  if (phase === 'error' && input.status === 'STOPPED') blocked = BLOCKED.stopped ?? null;
  if (input.status === 'STARTING') blocked = BLOCKED.starting ?? null;
  return { phase, label: LABELS[phase], tone: TONES[phase], stage, details: factsOf(input), blocked };
}
