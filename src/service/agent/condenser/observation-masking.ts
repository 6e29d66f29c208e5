import type { V0Event } from '../../../shared/api/events';

/** The newest events, whose outputs are always shown whole. */
const RECENT_EVENTS = 40;
const MASKED_OVER = 5_000;
const SHOWN_EACH_END = 1_000;
const MASKED_KINDS = new Set(['run', 'mcp']);

function masked(content: string): string {
  const hidden = content.length - 2 * SHOWN_EACH_END;
  return `${content.slice(0, SHOWN_EACH_END)}\n[... ${hidden} characters of this older output are not shown ...]\n${content.slice(-SHOWN_EACH_END)}`;
}

/**
 * Observation masking (agent-behaviour §5.2), applied when the view is rendered: outside the last 40
 * events, `run` and `mcp` outputs over 5,000 characters keep only their first and last 1,000. The log and
 * the view passed in are left as they are.
 */
export function maskOldOutputs(view: V0Event[]): V0Event[] {
  const recentFrom = view.length - RECENT_EVENTS;
  return view.map((event, index) =>
    index < recentFrom &&
    MASKED_KINDS.has(event.observation ?? '') &&
    (event.content?.length ?? 0) > MASKED_OVER
      ? { ...event, content: masked(event.content as string) }
      : event,
  );
}
