import { describe, expect, it } from 'vitest';
import type { ConversationMetrics } from '../../../shared/api/app-conversations';
import { costLabel } from './cost-label';

function metrics(accumulated_cost: number, cost_known = true): ConversationMetrics {
  return {
    model_name: 'openai/gpt-4o',
    accumulated_cost,
    max_budget_per_task: null,
    accumulated_token_usage: null,
    cost_known,
  };
}

describe('costLabel', () => {
  it('shows dollars with cents', () => {
    expect(costLabel(metrics(0.1234)).text).toBe('$0.12');
    expect(costLabel(metrics(12.5)).text).toBe('$12.50');
    expect(costLabel(metrics(0)).text).toBe('$0.00');
  });

  it('does not round a cost below a cent to nothing', () => {
    expect(costLabel(metrics(0.0004)).text).toBe('<$0.01');
  });

  it('shows a dash before the first model call and when a price was unknown', () => {
    expect(costLabel(null)).toEqual({ text: '—', title: 'Cost: no model call yet' });
    expect(costLabel(metrics(0.5, false))).toEqual({
      text: '—',
      title: 'Cost unknown: no price known for openai/gpt-4o',
    });
  });
});
