import type { V0Event } from '../../../shared/api/events';
import type { ConfirmationState, RepositoryCode } from './timeline-rows';

export type Args = Record<string, unknown>;

/** A string field's value; '' for anything else. */
export function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The repository code an action runs or asks about, when its args name one. */
export function repositoryCode(args: Args | undefined): RepositoryCode | null {
  const code = args?.repository_code as Partial<RepositoryCode> | undefined;
  return code && typeof code.id === 'string' && typeof code.name === 'string'
    ? { id: code.id, kind: code.kind ?? 'setup_script', name: code.name, content: text(code.content) }
    : null;
}

/** What pairs an action's copies (asked, then confirmed or rejected): its tool call, or its repository-code question. */
export function toolCallId(event: V0Event): string | null {
  const id = event.tool_call_metadata?.tool_call_id;
  if (typeof id === 'string') return id;
  const code = repositoryCode(event.args);
  return code ? `repository:${code.id}` : null;
}

/** Where an action stands with the user's confirmation; null when it needs none. */
export function confirmationOf(args: Args): ConfirmationState {
  const state = args.confirmation_state;
  return state === 'awaiting_confirmation' || state === 'confirmed' || state === 'rejected' ? state : null;
}

/** A confirmed or rejected copy of a tool call: it settles the call's earlier "awaiting confirmation" copy. */
export function settlingCall(event: V0Event): string | null {
  const callId = toolCallId(event);
  return callId && event.args && event.action && confirmationOf(event.args) !== 'awaiting_confirmation'
    ? callId
    : null;
}

/** Every call the events settle. */
export function settledCalls(events: readonly V0Event[]): Set<string> {
  const settled = new Set<string>();
  for (const event of events) {
    const callId = settlingCall(event);
    if (callId) settled.add(callId);
  }
  return settled;
}

/** A copy of an action that asks for the user's confirmation. */
export function isRequest(event: V0Event): boolean {
  return confirmationOf(event.args ?? {}) === 'awaiting_confirmation';
}
