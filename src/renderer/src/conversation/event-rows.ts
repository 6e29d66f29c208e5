import type { V0Event } from '../../../shared/api/events';
import { commandOutput } from './command-output';
import { confirmationOf, repositoryCode, text, type Args } from './event-args';
import type { CommandRow, EditRow, EgressRefusal, ReadRow, TimelineRow } from './timeline-rows';

/** Bookkeeping that is not shown: the system prompt, context recalls, condensation, state requests. */
const UNSHOWN_ACTIONS = new Set([
  'system',
  'recall',
  'change_agent_state',
  'condensation',
  'condensation_request',
]);
const UNSHOWN_OBSERVATIONS = new Set(['recall', 'think', 'null', 'condense']);

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

/** The row an action opens; null for one that is not shown. */
export function actionRow(event: V0Event): TimelineRow | null {
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
export function answer(row: TimelineRow | undefined, event: V0Event): Partial<ToolRowOf> | null {
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

function egressRefusal(event: V0Event): EgressRefusal | null {
  const egress = event.extras?.egress as Partial<EgressRefusal> | undefined;
  if (event.extras?.error_id !== 'EGRESS_REFUSED' || !egress) return null;
  const { host, port, rule } = egress;
  return typeof host === 'string' && typeof port === 'number' && typeof rule === 'string'
    ? { host, port, rule, held: egress.held === true }
    : null;
}

/** The row of an observation that answers no action; null for one that is not shown. */
export function observationRow(event: V0Event): TimelineRow | null {
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
