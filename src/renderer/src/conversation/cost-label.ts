import type { ConversationMetrics } from '../../../shared/api/app-conversations';

/** A conversation's cost as a list row shows it: dollars, or "—" before a model call or without a price. */
export function costLabel(metrics: ConversationMetrics | null): { text: string; title: string } {
  if (!metrics) return { text: '—', title: 'Cost: no model call yet' };
  if (!metrics.cost_known)
    return { text: '—', title: `Cost unknown: no price known for ${metrics.model_name}` };
  const usd = metrics.accumulated_cost;
  return { text: usd > 0 && usd < 0.01 ? '<$0.01' : `$${usd.toFixed(2)}`, title: 'Cost' };
}
