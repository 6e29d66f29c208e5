import type { V0Event } from '../../../shared/api/events';

function isUserMessage(event: V0Event): boolean {
  return event.source === 'user' && event.action === 'message';
}

/** The events the window never drops: the system event, the first user message and its recall. */
function essentialIds(history: V0Event[]): Set<number> {
  const essential = new Set<number>();
  const system = history.find((e) => e.action === 'system');
  if (system) essential.add(system.id);
  const first = history.findIndex(isUserMessage);
  if (first < 0) return essential;
  essential.add((history[first] as V0Event).id);
  for (const event of history.slice(first + 1)) {
    if (isUserMessage(event)) break;
    if (event.observation === 'recall') {
      essential.add(event.id);
      break;
    }
  }
  return essential;
}

/**
 * The window condenser's choice (agent-behaviour §5.1): the ids of the older half of the events that are
 * not essential. The newest half stays (at least one event); observations whose action is dropped go with
 * it when the condensation is recorded.
 */
export function windowDropped(history: V0Event[]): number[] {
  const essential = essentialIds(history);
  const rest = history.filter((e) => !essential.has(e.id));
  const keep = Math.max(1, Math.floor(rest.length / 2));
  return rest.slice(0, rest.length - keep).map((e) => e.id);
}
