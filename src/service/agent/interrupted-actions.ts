import type { DockhandEvent } from '../events/model/dockhand-event';
import { isAction, legacyName } from '../events/model/event-facts';

export const RESTART_INTERRUPTED =
  'The action was interrupted because Dockhand restarted; its outcome is unknown. Check the current state before retrying.';

/** Actions that never run or produce no observation of their own. */
const UNANSWERED_BY_DESIGN = new Set<DockhandEvent['kind']>(['system', 'message', 'finish', 'condensation']);
const NOT_RUN = new Set(['awaiting_confirmation', 'rejected']);

/**
 * Actions that started running but have no observation: what a service that stopped abruptly left
 * unanswered. Actions held for confirmation or rejected are not among them (nor stored recall actions).
 */
export function interruptedActions(history: DockhandEvent[]): DockhandEvent[] {
  const answered = new Set(history.flatMap((e) => (e.cause === undefined ? [] : [e.cause])));
  return history.filter(
    (e) =>
      isAction(e) &&
      !UNANSWERED_BY_DESIGN.has(e.kind) &&
      legacyName(e).action !== 'recall' &&
      !('confirmation' in e && e.confirmation !== undefined && NOT_RUN.has(e.confirmation)) &&
      !answered.has(e.id),
  );
}
