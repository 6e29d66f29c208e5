import { AgentStateStore, type SavedAgentState } from '../agent/agent-state-store';
import type { LlmCost, LlmUsage } from '../agent/llm/usage-and-cost';
import { DEFAULT_MAX_ITERATIONS } from '../agent/step-budget';
import type { Db } from '../storage/database';

/** Cents, or hundredths of a cent under a dollar, where a small budget is spent in fractions of a cent. */
function usd(amount: number): string {
  return amount.toFixed(amount < 1 ? 4 : 2);
}

/** The settings a conversation's gateway budget starts from. */
export interface BudgetLimits {
  /** USD; null = no budget. */
  maxBudgetPerTask: number | null;
  maxIterations: number | null;
}

/**
 * The tokens and cost of the gateway's calls, counted into the conversation's saved agent state: the store
 * the conversation's `metrics` (V1 and V0) read when no Dockhand agent runs in it, as for an agent in the
 * sandbox. SQLite is synchronous, so each read-and-write is whole.
 */
export class GatewayBudget {
  private readonly store: AgentStateStore;

  constructor(
    db: Db,
    private readonly limits: () => BudgetLimits,
  ) {
    this.store = new AgentStateStore(db);
  }

  /** Why the conversation may make no further model call (its budget is spent), or null. */
  refusal(conversationId: string): string | null {
    const state = this.state(conversationId);
    if (state.budgetLimit === null || !state.costKnown || state.cost < state.budgetLimit) return null;
    return `The conversation reached its budget: $${usd(state.cost)} spent of $${usd(state.budgetLimit)} (max_budget_per_task). Raise the budget in the settings to go on.`;
  }

  /**
   * Adds one call's tokens and cost. True when this call's unknown price ends the enforcement of a budget, so
   * that the conversation is told once.
   */
  account(conversationId: string, usage: LlmUsage, cost: LlmCost): boolean {
    const state = this.state(conversationId);
    const wasKnown = state.costKnown;
    state.cost += cost.usd;
    state.costKnown &&= cost.known;
    state.promptTokens += usage.prompt;
    state.completionTokens += usage.completion;
    this.store.save(conversationId, state);
    return wasKnown && !state.costKnown && state.budgetLimit !== null;
  }

  /** The saved state, or a new one from the settings; a saved state without a budget takes the settings'. */
  private state(conversationId: string): SavedAgentState {
    const limits = this.limits();
    const saved = this.store.load(conversationId);
    if (saved) return { ...saved, budgetLimit: saved.budgetLimit ?? limits.maxBudgetPerTask };
    return {
      state: 'awaiting_user_input',
      iterations: 0,
      iterationLimit: limits.maxIterations ?? DEFAULT_MAX_ITERATIONS,
      budgetLimit: limits.maxBudgetPerTask,
      cost: 0,
      costKnown: true,
      promptTokens: 0,
      completionTokens: 0,
      queue: [],
      pending: null,
      recalled: false,
      textTools: false,
      workingDir: null,
      replay: null,
    };
  }
}
