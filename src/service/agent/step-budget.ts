import type { LlmResponse } from './llm/llm-types';
import type { LlmMetrics } from '../events/model/dockhand-event';

/** How many steps an agent may take per task when the settings do not say. */
export const DEFAULT_MAX_ITERATIONS = 500;

/** What the budget of a conversation's agent is: counted so far and the limits (kept across restarts). */
export interface BudgetState {
  iterations: number;
  iterationLimit: number;
  /** USD; null = no budget. */
  budgetLimit: number | null;
  cost: number;
  /** False once a call's price was unknown: the budget cannot be enforced from then on. */
  costKnown: boolean;
  promptTokens: number;
  completionTokens: number;
}

export interface BudgetSettings {
  maxIterations: number;
  /** USD; null = no budget. */
  maxBudgetPerTask: number | null;
}

/** Why no further model call may be made (the loop enters `error` with this text), or null. */
export function limitReached(state: BudgetState): string | null {
  if (state.iterations >= state.iterationLimit) {
    return `Agent reached maximum iteration. Current iteration: ${state.iterations}, max iteration: ${state.iterationLimit}`;
  }
  if (state.budgetLimit !== null && state.costKnown && state.cost >= state.budgetLimit) {
    return `Agent reached maximum budget for conversation. Current budget: ${state.cost.toFixed(2)}, max budget: ${state.budgetLimit.toFixed(2)}`;
  }
  return null;
}

/** The iterations, cost and tokens of one conversation's agent against its limits. */
export class StepBudget {
  private state: BudgetState;
  private unpricedReported = false;

  constructor(private readonly settings: BudgetSettings) {
    this.state = {
      iterations: 0,
      iterationLimit: settings.maxIterations,
      budgetLimit: settings.maxBudgetPerTask,
      cost: 0,
      costKnown: true,
      promptTokens: 0,
      completionTokens: 0,
    };
  }

  /** See `limitReached`. */
  limitReached(): string | null {
    return limitReached(this.state);
  }

  /** One model call (or recorded step of a replay) answered. */
  countIteration(): void {
    this.state.iterations += 1;
  }

  /**
   * Adds a call's cost and tokens. True the first time a budget is set but the cost is no longer known, so
   * the user is told once that the budget is not enforced.
   */
  account(response: Pick<LlmResponse, 'cost' | 'usage'>): boolean {
    const state = this.state;
    state.cost += response.cost.usd ?? 0;
    state.costKnown &&= response.cost.known;
    state.promptTokens += response.usage.prompt;
    state.completionTokens += response.usage.completion;
    if (state.costKnown || state.budgetLimit === null || this.unpricedReported) return false;
    this.unpricedReported = true;
    return true;
  }

  /** A user message after the agent stopped in `error`: another round of the configured limits from here. */
  extend(): void {
    this.state.iterationLimit = this.state.iterations + this.settings.maxIterations;
    if (this.settings.maxBudgetPerTask !== null)
      this.state.budgetLimit = this.state.cost + this.settings.maxBudgetPerTask;
  }

  /** A copy of the counts and limits, to save. */
  snapshot(): BudgetState {
    return { ...this.state };
  }

  /** The counts and limits saved before a restart. */
  restore(saved: BudgetState): void {
    this.state = {
      iterations: saved.iterations,
      iterationLimit: saved.iterationLimit,
      budgetLimit: saved.budgetLimit,
      cost: saved.cost,
      costKnown: saved.costKnown,
      promptTokens: saved.promptTokens,
      completionTokens: saved.completionTokens,
    };
  }

  /** The metrics an agent event carries: the totals so far, and the response's own usage when there is one. */
  metrics(model: string, response?: LlmResponse): LlmMetrics {
    return {
      accumulatedCost: this.state.cost,
      maxBudgetPerTask: this.state.budgetLimit,
      costKnown: this.state.costKnown,
      accumulatedTokenUsage: {
        model,
        promptTokens: this.state.promptTokens,
        completionTokens: this.state.completionTokens,
        cacheReadTokens: response?.usage.cache_read ?? 0,
        cacheWriteTokens: response?.usage.cache_write ?? 0,
        contextWindow: 0,
        perTurnTokens: response ? response.usage.prompt + response.usage.completion : 0,
        responseId: response?.responseId ?? '',
      },
    };
  }
}
