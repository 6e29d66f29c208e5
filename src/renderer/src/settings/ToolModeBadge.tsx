import type { ToolMode } from '../../../shared/api/model-probe';

const BADGES: Record<ToolMode, { text: string; tone: string; title: string }> = {
  native: { text: 'native tools', tone: 'ok', title: 'The model calls tools natively.' },
  text: {
    text: 'text tools',
    tone: 'info',
    title: 'The model writes tool calls in Dockhand’s text format: it works, a little less reliably.',
  },
  none: {
    text: 'no tool use',
    tone: 'error',
    title: 'The model made no tool call either way: it cannot do agent work.',
  },
};

/** How the model takes tools, as the tool-call probe found (nothing until one ran). */
export function ToolModeBadge({ mode }: { mode: ToolMode | null }) {
  if (!mode) return null;
  const badge = BADGES[mode];
  return (
    <span className={`badge badge-${badge.tone}`} title={badge.title} data-tool-mode={mode}>
      {badge.text}
    </span>
  );
}
