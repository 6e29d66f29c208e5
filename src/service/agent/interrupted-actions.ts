import type { V0Event } from '../../shared/api/events';

export const RESTART_INTERRUPTED =
  'The action was interrupted because Dockhand restarted; its outcome is unknown. Check the current state before retrying.';

/** Actions that never run or produce no observation of their own. */
const UNANSWERED_BY_DESIGN = new Set(['system', 'message', 'finish', 'condensation', 'recall']);
const NOT_RUN = new Set(['awaiting_confirmation', 'rejected']);

/**
 * Actions that started running but have no observation: what a service that stopped abruptly left
 * unanswered. Actions held for confirmation or rejected are not among them.
 */
export function interruptedActions(history: V0Event[]): V0Event[] {
  const answered = new Set(history.flatMap((e) => (e.cause === undefined ? [] : [e.cause])));
  return history.filter(
    (e) =>
      e.action !== undefined &&
      !UNANSWERED_BY_DESIGN.has(e.action) &&
      !NOT_RUN.has(String(e.args?.confirmation_state)) &&
      !answered.has(e.id),
  );
}
