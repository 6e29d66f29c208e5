import type { V0Event } from '../../../shared/api/events';

export type ConfirmationState = 'awaiting_confirmation' | 'confirmed' | 'rejected' | null;

interface RowBase {
  /** Stable across updates: the id of the event that opened the row. */
  key: string;
  id: number;
}

/** Something the agent did that has an answer: a command, a file edit or a file read. */
interface ToolRow extends RowBase {
  thought: string;
  confirmation: ConfirmationState;
  risk: unknown;
  /** The error that answered it instead of a result (stopped, not executed, failed). */
  error: string | null;
  rejected: boolean;
}

export interface CommandRow extends ToolRow {
  kind: 'command';
  command: string;
  source: string;
  output: string | null;
  exitCode: number | null;
  /** Where the command ran, when its result says. */
  workingDir: string | null;
}

export interface EditRow extends ToolRow {
  kind: 'edit';
  path: string;
  operation: string;
  diff: string | null;
  output: string | null;
}

export interface ReadRow extends ToolRow {
  kind: 'read';
  path: string;
  output: string | null;
}

export type TimelineRow =
  | CommandRow
  | EditRow
  | ReadRow
  | (RowBase & { kind: 'message'; source: 'user' | 'agent'; text: string })
  | (RowBase & { kind: 'think'; thought: string })
  | (RowBase & { kind: 'error'; text: string })
  | (RowBase & { kind: 'state'; state: string; reason: string })
  | (RowBase & { kind: 'note'; text: string });

/** Agent states worth a separator: the ones that end or interrupt its work. */
const SEPARATOR_STATES = new Set(['paused', 'stopped', 'error', 'finished', 'rejected']);
/** Bookkeeping that is not shown: the system prompt, context recalls, condensation, state requests. */
const UNSHOWN_ACTIONS = new Set([
  'system',
  'recall',
  'change_agent_state',
  'condensation',
  'condensation_request',
]);
const UNSHOWN_OBSERVATIONS = new Set(['recall', 'think', 'null', 'condense']);

type Args = Record<string, unknown>;

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function toolCallId(event: V0Event): string | null {
  const id = event.tool_call_metadata?.tool_call_id;
  return typeof id === 'string' ? id : null;
}

function confirmationOf(args: Args): ConfirmationState {
  const state = args.confirmation_state;
  return state === 'awaiting_confirmation' || state === 'confirmed' || state === 'rejected' ? state : null;
}

/** Tool calls that were confirmed or rejected: their earlier "awaiting confirmation" copies are settled. */
function settledCalls(events: readonly V0Event[]): Set<string> {
  const settled = new Set<string>();
  for (const event of events) {
    const callId = toolCallId(event);
    if (callId && event.args && confirmationOf(event.args) !== 'awaiting_confirmation' && event.action) {
      settled.add(callId);
    }
  }
  return settled;
}

function isSettledRequest(event: V0Event, settled: Set<string>): boolean {
  const callId = toolCallId(event);
  return (
    confirmationOf(event.args ?? {}) === 'awaiting_confirmation' && callId !== null && settled.has(callId)
  );
}

function toolBase(event: V0Event, args: Args) {
  return {
    key: `e${event.id}`,
    id: event.id,
    thought: text(args.thought),
    confirmation: confirmationOf(args),
    risk: args.security_risk,
    error: null,
    rejected: false,
  };
}

function actionRow(event: V0Event): TimelineRow | null {
  const args = event.args ?? {};
  const base = { key: `e${event.id}`, id: event.id };
  switch (event.action) {
    case 'message': {
      const content = text(args.content) || event.message;
      if (!content.trim()) return null;
      return { ...base, kind: 'message', source: event.source === 'user' ? 'user' : 'agent', text: content };
    }
    case 'finish': {
      const final = text(args.final_thought);
      return final.trim() ? { ...base, kind: 'message', source: 'agent', text: final } : null;
    }
    case 'run':
      if (args.hidden === true) return null;
      return {
        ...toolBase(event, args),
        kind: 'command',
        command: text(args.command),
        source: event.source,
        output: null,
        exitCode: null,
        workingDir: null,
      };
    case 'edit':
      return {
        ...toolBase(event, args),
        kind: 'edit',
        path: text(args.path),
        operation: text(args.command),
        diff: null,
        output: null,
      };
    case 'read':
      return { ...toolBase(event, args), kind: 'read', path: text(args.path), output: null };
    case 'think':
      return { ...base, kind: 'think', thought: text(args.thought) };
    default:
      if (event.action && UNSHOWN_ACTIONS.has(event.action)) return null;
      return event.message.trim() ? { ...base, kind: 'note', text: event.message } : null;
  }
}

/** Lines the shell adds for the model that the command block shows in its own way (exit code, directory). */
const ANNOTATION =
  /^\[(The command completed with exit code -?\d+\.|Current working directory: .*|Python interpreter: .*)\]$/;

/**
 * A command's output without the trailing annotations written for the model. Reads back from the end, line
 * by line, so a long output is not split into lines on every load.
 */
export function commandOutput(content: string): string {
  let end = content.length;
  while (end > 0) {
    const start = content.lastIndexOf('\n', end - 1) + 1;
    const line = content.slice(start, end);
    if (!ANNOTATION.test(line) && line.trim() !== '') break;
    end = Math.max(0, start - 1);
  }
  return content.slice(0, end);
}

function runResult(event: V0Event) {
  const metadata = event.extras?.metadata as { exit_code?: unknown; working_dir?: unknown } | undefined;
  return {
    output: commandOutput(event.content ?? ''),
    exitCode: typeof metadata?.exit_code === 'number' ? metadata.exit_code : null,
    workingDir: typeof metadata?.working_dir === 'string' ? metadata.working_dir : null,
  };
}

/** Puts an observation into the row of the action it answers; false when it belongs to none. */
function answer(row: TimelineRow | undefined, event: V0Event): boolean {
  if (!row || (row.kind !== 'command' && row.kind !== 'edit' && row.kind !== 'read')) return false;
  const content = event.content ?? '';
  if (event.observation === 'error') {
    row.error = content;
  } else if (event.observation === 'user_rejected') {
    row.rejected = true;
  } else if (row.kind === 'command' && event.observation === 'run') {
    Object.assign(row, runResult(event));
  } else if (row.kind === 'edit' && event.observation === 'edit') {
    row.output = content;
    row.diff = typeof event.extras?.diff === 'string' ? event.extras.diff : null;
  } else if (row.kind === 'read' && event.observation === 'read') {
    row.output = content;
  } else {
    return false;
  }
  return true;
}

function observationRow(event: V0Event): TimelineRow | null {
  const base = { key: `e${event.id}`, id: event.id };
  const content = event.content ?? '';
  switch (event.observation) {
    case 'error':
      return { ...base, kind: 'error', text: content || event.message };
    case 'run':
      return {
        ...base,
        kind: 'command',
        command: text(event.extras?.command),
        source: event.source,
        thought: '',
        confirmation: null,
        risk: undefined,
        error: null,
        rejected: false,
        ...runResult(event),
      };
    case 'user_rejected':
      return { ...base, kind: 'note', text: 'You rejected the action.' };
    default:
      if (event.observation && UNSHOWN_OBSERVATIONS.has(event.observation)) return null;
      return event.message.trim() ? { ...base, kind: 'note', text: event.message } : null;
  }
}

/**
 * The rows a person reads: messages, commands with their output, edits with their diff, thoughts, errors,
 * and a separator where the agent paused, stopped, finished or failed. Observations are folded into
 * the row of the action they answer.
 */
export function buildTimeline(events: readonly V0Event[]): TimelineRow[] {
  const rows: TimelineRow[] = [];
  const byAction = new Map<number, TimelineRow>();
  const byCall = new Map<string, TimelineRow>();
  const settled = settledCalls(events);
  let agentState: string | null = null;

  for (const event of events) {
    if (event.observation === 'agent_state_changed') {
      const state = text(event.extras?.agent_state);
      if (SEPARATOR_STATES.has(state) && state !== agentState) {
        rows.push({
          key: `e${event.id}`,
          id: event.id,
          kind: 'state',
          state,
          reason: text(event.extras?.reason),
        });
      }
      agentState = state;
      continue;
    }
    if (event.action) {
      if (isSettledRequest(event, settled)) continue;
      const row = actionRow(event);
      if (!row) continue;
      rows.push(row);
      byAction.set(event.id, row);
      const callId = toolCallId(event);
      if (callId) byCall.set(callId, row);
      continue;
    }
    // An observation answers its `cause`; one that says why a call did not run names only the call.
    const callId = toolCallId(event);
    const answered =
      event.cause !== undefined ? byAction.get(event.cause) : callId ? byCall.get(callId) : undefined;
    if (answer(answered, event)) continue;
    const row = observationRow(event);
    if (row) rows.push(row);
  }
  return rows;
}

/** The agent state the events last reported, or null before the first report. */
export function lastAgentState(events: readonly V0Event[]): string | null {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (event?.observation === 'agent_state_changed') return text(event.extras?.agent_state) || null;
  }
  return null;
}

/** The action waiting for the user's confirmation: the last one asked about and not yet settled. */
export function pendingAction(events: readonly V0Event[]): V0Event | null {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (!event?.action || !event.args) continue;
    const state = confirmationOf(event.args);
    if (state === 'awaiting_confirmation') return event;
    if (state !== null) return null;
  }
  return null;
}
