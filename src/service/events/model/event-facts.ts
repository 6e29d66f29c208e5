import type { DockhandEvent } from './dockhand-event';

/**
 * What readers ask of any event, whatever its kind: whether it is an action (V0's `action`, as opposed to an
 * observation), whether the model must not see it, and the text a result shows.
 */

/** The kinds that are an action on the V0 wire (`action`); the others are observations. */
const ACTION_KINDS = new Set<DockhandEvent['kind']>([
  'message',
  'system',
  'thought',
  'command',
  'read',
  'edit',
  'fetch',
  'plan',
  'mcp_call',
  'status_request',
  'finish',
  'reject',
  'condensation',
]);

/** The V0 name of a legacy event's action or observation. */
export function legacyName(event: DockhandEvent): { action?: string; observation?: string } {
  if (event.kind !== 'legacy') return {};
  const { action, observation } = event.wire;
  return {
    ...(typeof action === 'string' ? { action } : {}),
    ...(typeof observation === 'string' ? { observation } : {}),
  };
}

export function isAction(event: DockhandEvent): boolean {
  return event.kind === 'legacy' ? legacyName(event).action !== undefined : ACTION_KINDS.has(event.kind);
}

/** Kept from the model: the service's own commands and notes, loop detections, and stored events so marked. */
export function isHidden(event: DockhandEvent): boolean {
  if (event.kind === 'loop_detection') return true;
  if ('hidden' in event && event.hidden) return true;
  const stored = event.kind === 'legacy' ? event.wire : event.storedV0;
  const marked = (part: unknown) => (part as { hidden?: unknown } | undefined)?.hidden === true;
  return stored !== undefined && (marked(stored.args) || marked(stored.extras));
}

/** The text of an event that is not an action (V0's `content`); '' for a state change. */
export function observedText(event: DockhandEvent): string {
  switch (event.kind) {
    case 'command_result':
      return event.output;
    case 'condensation_summary':
      return event.summary;
    case 'status':
      return '';
    case 'legacy':
      return typeof event.wire.content === 'string' ? event.wire.content : '';
    default:
      return 'text' in event ? event.text : '';
  }
}
