import type { V0Event } from '../../../shared/api/events';

export type ConfirmationState = 'awaiting_confirmation' | 'confirmed' | 'rejected' | null;

interface RowBase {
  /** Stable across updates: the id of the event that opened the row. */
  key: string;
  id: number;
  /** When the event that opened the row happened (ISO 8601). */
  at: string;
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

/** Code a repository brings (setup script, git hook, microagent MCP server), shown before it may run. */
export interface RepositoryCode {
  id: string;
  kind: 'setup_script' | 'git_hook' | 'mcp_server';
  name: string;
  content: string;
}

export interface CommandRow extends ToolRow {
  kind: 'command';
  /** Set when the command runs a repository's own code: what it is and its text. */
  code?: RepositoryCode;
  command: string;
  source: string;
  output: string | null;
  exitCode: number | null;
  /** Where the command ran, when its result says. */
  workingDir: string | null;
  /** When its result came (ISO 8601), for its duration. */
  endedAt: string | null;
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
  | (RowBase & { kind: 'error'; text: string; egress: EgressRefusal | null })
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

function repositoryCode(args: Args | undefined): RepositoryCode | null {
  const code = args?.repository_code as Partial<RepositoryCode> | undefined;
  return code && typeof code.id === 'string' && typeof code.name === 'string'
    ? { id: code.id, kind: code.kind ?? 'setup_script', name: code.name, content: text(code.content) }
    : null;
}

/** What pairs an action's copies (asked, then confirmed or rejected): its tool call, or its repository-code question. */
function toolCallId(event: V0Event): string | null {
  const id = event.tool_call_metadata?.tool_call_id;
  if (typeof id === 'string') return id;
  const code = repositoryCode(event.args);
  return code ? `repository:${code.id}` : null;
}

function confirmationOf(args: Args): ConfirmationState {
  const state = args.confirmation_state;
  return state === 'awaiting_confirmation' || state === 'confirmed' || state === 'rejected' ? state : null;
}

/** A confirmed or rejected copy of a tool call: it settles the call's earlier "awaiting confirmation" copy. */
function settlingCall(event: V0Event): string | null {
  const callId = toolCallId(event);
  return callId && event.args && event.action && confirmationOf(event.args) !== 'awaiting_confirmation'
    ? callId
    : null;
}

/** Every call the events settle. */
function settledCalls(events: readonly V0Event[]): Set<string> {
  const settled = new Set<string>();
  for (const event of events) {
    const callId = settlingCall(event);
    if (callId) settled.add(callId);
  }
  return settled;
}

function isRequest(event: V0Event): boolean {
  return confirmationOf(event.args ?? {}) === 'awaiting_confirmation';
}

function toolBase(event: V0Event, args: Args) {
  return {
    key: `e${event.id}`,
    id: event.id,
    at: event.timestamp,
    thought: text(args.thought),
    confirmation: confirmationOf(args),
    risk: args.security_risk,
    error: null,
    rejected: false,
  };
}

function actionRow(event: V0Event): TimelineRow | null {
  const args = event.args ?? {};
  const base = { key: `e${event.id}`, id: event.id, at: event.timestamp };
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
    case 'run': {
      // Hidden from the model; a repository's own code is still shown to the user.
      const code = repositoryCode(args);
      if (args.hidden === true && !code) return null;
      return {
        ...toolBase(event, args),
        kind: 'command',
        command: text(args.command),
        source: event.source,
        output: null,
        exitCode: null,
        endedAt: null,
        workingDir: null,
        ...(code ? { code } : {}),
      };
    }
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
    endedAt: event.timestamp,
  };
}

type ToolRowOf = CommandRow | EditRow | ReadRow;

/** What an observation adds to the row of the action it answers; null when it belongs to none. */
function answer(row: TimelineRow | undefined, event: V0Event): Partial<ToolRowOf> | null {
  if (!row || (row.kind !== 'command' && row.kind !== 'edit' && row.kind !== 'read')) return null;
  const content = event.content ?? '';
  if (event.observation === 'error') return { error: content };
  if (event.observation === 'user_rejected') return { rejected: true };
  if (row.kind === 'command' && event.observation === 'run') return runResult(event);
  if (row.kind === 'edit' && event.observation === 'edit') {
    return { output: content, diff: typeof event.extras?.diff === 'string' ? event.extras.diff : null };
  }
  if (row.kind === 'read' && event.observation === 'read') return { output: content };
  return null;
}

/** A connection the sandbox's egress policy refused (an error event from the environment). */
export interface EgressRefusal {
  host: string;
  port: number;
  rule: string;
  /** Held open for the user's say (confirmation mode). */
  held: boolean;
}

function egressRefusal(event: V0Event): EgressRefusal | null {
  const egress = event.extras?.egress as Partial<EgressRefusal> | undefined;
  if (event.extras?.error_id !== 'EGRESS_REFUSED' || !egress) return null;
  const { host, port, rule } = egress;
  return typeof host === 'string' && typeof port === 'number' && typeof rule === 'string'
    ? { host, port, rule, held: egress.held === true }
    : null;
}

function observationRow(event: V0Event): TimelineRow | null {
  const base = { key: `e${event.id}`, id: event.id, at: event.timestamp };
  const content = event.content ?? '';
  switch (event.observation) {
    case 'error':
      return { ...base, kind: 'error', text: content || event.message, egress: egressRefusal(event) };
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
 * The rows a person reads, kept up to date as events arrive: each update reads only the events after the
 * ones it has seen, and rows that did not change stay the same objects. Events inserted before the end, or
 * a call settled after its request was shown, rebuild the rows from the start.
 */
export class TimelineBuilder {
  private events: readonly V0Event[] = [];
  private rows: TimelineRow[] = [];
  private snapshot: readonly TimelineRow[] = [];
  /** Row indexes by the id of the action that opened them and by tool call. */
  private byAction = new Map<number, number>();
  private byCall = new Map<string, number>();
  /** Calls with an awaiting copy shown, and calls settled so far. */
  private requested = new Set<string>();
  private settled = new Set<string>();
  private agentState: string | null = null;
  /** Rows from this index on were made by the running update and may still be changed in place. */
  private fresh = 0;
  /** Whether the rows differ from the snapshot last returned. */
  private changed = false;

  update(events: readonly V0Event[]): readonly TimelineRow[] {
    if (events === this.events) return this.snapshot;
    const seen = this.events.length;
    if (events.length < seen || (seen > 0 && events[seen - 1] !== this.events[seen - 1])) {
      return this.rebuild(events);
    }
    this.fresh = this.rows.length;
    for (let index = seen; index < events.length; index++) {
      if (!this.add(events[index] as V0Event)) return this.rebuild(events);
    }
    return this.done(events);
  }

  /** Builds the rows from the start, knowing every call the events settle. */
  private rebuild(events: readonly V0Event[]): readonly TimelineRow[] {
    this.rows = [];
    this.byAction = new Map();
    this.byCall = new Map();
    this.requested = new Set();
    this.settled = settledCalls(events);
    this.agentState = null;
    this.fresh = 0;
    this.changed = true;
    for (const event of events) this.add(event);
    return this.done(events);
  }

  private done(events: readonly V0Event[]): readonly TimelineRow[] {
    this.events = events;
    if (this.changed) this.snapshot = this.rows.slice();
    this.changed = false;
    return this.snapshot;
  }

  /** Adds one event; false when an earlier row must go (a call settled after its request was shown). */
  private add(event: V0Event): boolean {
    if (event.observation === 'agent_state_changed') {
      const state = text(event.extras?.agent_state);
      if (SEPARATOR_STATES.has(state) && state !== this.agentState) {
        this.push({
          key: `e${event.id}`,
          id: event.id,
          at: event.timestamp,
          kind: 'state',
          state,
          reason: text(event.extras?.reason),
        });
      }
      this.agentState = state;
      return true;
    }
    if (event.action) {
      const callId = toolCallId(event);
      const settles = settlingCall(event);
      if (settles) {
        // Its awaiting copy is on screen: only a build that knows the settlement leaves it out.
        if (this.requested.has(settles) && !this.settled.has(settles)) return false;
        this.settled.add(settles);
      }
      if (callId && isRequest(event) && this.settled.has(callId)) return true;
      const row = actionRow(event);
      if (!row) return true;
      if (callId && isRequest(event)) this.requested.add(callId);
      this.byAction.set(event.id, this.rows.length);
      if (callId) this.byCall.set(callId, this.rows.length);
      this.push(row);
      return true;
    }
    // An observation answers its `cause`; one that says why a call did not run names only the call.
    const callId = toolCallId(event);
    const index =
      event.cause !== undefined
        ? this.byAction.get(event.cause)
        : callId
          ? this.byCall.get(callId)
          : undefined;
    const answered = index === undefined ? undefined : this.rows[index];
    const changes = answer(answered, event);
    if (index !== undefined && answered && changes) {
      // A row the screen already shows is replaced, so its view sees the change.
      if (index < this.fresh) {
        this.rows[index] = { ...answered, ...changes } as TimelineRow;
        this.changed = true;
      } else {
        Object.assign(answered, changes);
      }
      return true;
    }
    const row = observationRow(event);
    if (row) this.push(row);
    return true;
  }

  private push(row: TimelineRow): void {
    this.rows.push(row);
    this.changed = true;
  }
}

/**
 * The rows a person reads: messages, commands with their output, edits with their diff, thoughts, errors,
 * and a separator where the agent paused, stopped, finished or failed. Observations are folded into
 * the row of the action they answer.
 */
export function buildTimeline(events: readonly V0Event[]): readonly TimelineRow[] {
  return new TimelineBuilder().update(events);
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
