import type { ConversationMetrics } from '../../shared/api/app-conversations';
import type { BudgetState } from '../agent/step-budget';
import type { ServiceContext } from '../context';
import type { ConversationService } from './conversation-service';
import type { ConversationRecord } from './conversation-store';

/** The model a conversation asks: its own, else the one of the settings. */
export function conversationModel(
  ctx: Pick<ServiceContext, 'settings'>,
  record: ConversationRecord,
): string | null {
  return record.llmModel ?? ctx.settings.stored()?.llm_model ?? null;
}

/**
 * The OpenHands `MetricsSnapshot` of a conversation's budget; null while nothing was counted (no model call
 * answered). Dockhand counts prompt and completion tokens only, so the other token counts are 0.
 */
export function metricsSnapshot(model: string, budget: BudgetState | null): ConversationMetrics | null {
  if (!budget || (budget.promptTokens + budget.completionTokens === 0 && budget.cost === 0)) return null;
  return {
    model_name: model,
    accumulated_cost: budget.cost,
    max_budget_per_task: budget.budgetLimit,
    accumulated_token_usage: {
      model,
      prompt_tokens: budget.promptTokens,
      completion_tokens: budget.completionTokens,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      reasoning_tokens: 0,
      context_window: 0,
      per_turn_token: 0,
      response_id: '',
    },
    cost_known: budget.costKnown,
  };
}

/** The metrics of conversations: the running agent's budget, else the saved one (one query for a page). */
export class ConversationMetricsReader {
  constructor(
    private readonly ctx: Pick<ServiceContext, 'settings' | 'agentStates'>,
    private readonly conversations: ConversationService,
  ) {}

  /** The metrics of each record, in the same order. */
  of(records: ConversationRecord[]): (ConversationMetrics | null)[] {
    const running = new Map(records.map((r) => [r.id, this.conversations.liveUsage(r.id)]));
    const saved = this.ctx.agentStates.loadMany(records.filter((r) => !running.get(r.id)).map((r) => r.id));
    return records.map((record) => {
      const live = running.get(record.id);
      if (live) return metricsSnapshot(live.model, live.budget);
      return metricsSnapshot(conversationModel(this.ctx, record) ?? '', saved.get(record.id) ?? null);
    });
  }
}
