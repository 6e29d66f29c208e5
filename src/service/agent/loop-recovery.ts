import type { NewEvent, V0Event } from '../../shared/api/events';
import { condensationAction } from './condenser/condensation-event';
import { condensedView, splitSummary } from './condenser/condensed-view';

export function retryDifferentlyText(actions: number): string {
  return `Your last ${actions} actions repeated without progress and were removed. Try a different approach.`;
}

/**
 * "Retry differently" after a loop detection (agent-behaviour §2.6): a condensation that forgets the
 * loop (null when nothing is left to forget), then the message telling the model why. Null when the latest
 * loop detection is already answered (a user message came after it) or there is none.
 */
export function retryDifferently(events: V0Event[]): { condensation: NewEvent | null; note: string } | null {
  const detection = events.findLast((e) => e.observation === 'loop_detection');
  if (!detection) return null;
  const answered = events.some((e) => e.id > detection.id && e.source === 'user' && e.action === 'message');
  if (answered) return null;
  const loopStart = Number(detection.extras?.loop_start_id);
  const { history } = splitSummary(condensedView(events));
  const loop = history.filter((e) => e.id >= loopStart && e.id < detection.id);
  const condensation = condensationAction(
    history,
    loop.map((e) => e.id),
    null,
  );
  const actions = loop.filter((e) => e.action !== undefined && e.source === 'agent').length;
  return { condensation, note: retryDifferentlyText(actions) };
}
