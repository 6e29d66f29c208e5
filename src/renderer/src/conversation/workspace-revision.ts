import type { V0Event } from '../../../shared/api/events';

/** Observations of actions that can change files in the workspace. */
const CHANGING = new Set(['run', 'run_ipython', 'edit', 'write', 'mcp']);

/**
 * The id of the last event after which the workspace may differ, -1 before any: views of the workspace
 * read it again when this changes.
 */
export function workspaceRevision(events: readonly V0Event[]): number {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (event?.observation !== undefined && CHANGING.has(event.observation)) return event.id;
  }
  return -1;
}
