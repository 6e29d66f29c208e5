import type { ServiceContext } from '../context';
import { conversationModel } from '../conversations/conversation-metrics';
import type { ConversationStore } from '../conversations/conversation-store';
import type { BudgetLimits } from './gateway-budget';

/** Where a conversation's model calls go: its model, the settings' base URL and the stored key. */
export interface GatewayTarget {
  model: string | null;
  baseUrl: string | null;
  apiKey: string | null;
}

/** The target of a conversation, or null once it no longer exists. */
export type TargetOf = (conversationId: string) => Promise<GatewayTarget | null>;

export function conversationTargets(ctx: ServiceContext, store: Pick<ConversationStore, 'get'>): TargetOf {
  return async (conversationId) => {
    const record = store.get(conversationId);
    if (!record) return null;
    return {
      model: conversationModel(ctx, record),
      baseUrl: ctx.settings.stored()?.llm_base_url || null,
      apiKey: (await ctx.secrets.get('llm_api_key')) || null,
    };
  };
}

/** The budget settings every conversation's gateway budget starts from. */
export function settingsBudget(ctx: Pick<ServiceContext, 'settings'>): () => BudgetLimits {
  return () => {
    const stored = ctx.settings.stored();
    return {
      maxBudgetPerTask: stored?.max_budget_per_task ?? null,
      maxIterations: stored?.max_iterations ?? null,
    };
  };
}
