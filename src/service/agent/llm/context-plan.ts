import type { ServerFacts } from './model-server-probe';
import { prepareCall } from './request-preparation';
import type { LlmRequest } from './llm-types';
import type { ModelRoute } from './model-routing';
import { estimatedUsage } from './usage-and-cost';

/** Tokens an agent turn needs beyond its fixed part: the conversation so far, tool output and the reply. */
export const WORKING_BUDGET_TOKENS = 16_384;
/** Context sizes are asked for in steps of this many tokens. */
const CONTEXT_STEP = 4096;
/** The window assumed when neither the server nor the model table knows it. */
export const UNKNOWN_CONTEXT_WINDOW = 32_768;

/** How a conversation's context is sized on a model's server. */
export interface ContextPlan {
  /** What an agent turn needs: system prompt, tool schemas, microagents, plus the working budget. */
  needed: number;
  /** The context to ask the server for (Ollama's `num_ctx`, LM Studio's load), or null to take what it runs. */
  request: number | null;
  /** LM Studio: the model must be (re)loaded with `request` first. */
  reload: boolean;
  /** The window the conversation runs in, which the condenser works from. */
  window: number;
  /** The window holds what a turn needs. */
  enough: boolean;
  /** What was decided, in words (with the numbers when the server cannot give enough). */
  summary: string;
}

function tokens(n: number): string {
  return `${n.toLocaleString('en-US')} tokens`;
}

/** The fixed part of an agent turn, in tokens: the system prompt and tool schemas as the client sends them. */
export function fixedTokens(route: ModelRoute, request: Pick<LlmRequest, 'system' | 'tools'>): number {
  const call = prepareCall(route, { system: request.system, messages: [], tools: request.tools }, 'native');
  return estimatedUsage(call.promptChars, 0).prompt;
}

/**
 * The context a conversation asks for and runs in: what a turn needs (rounded up), within the model's
 * trained maximum. Ollama takes it per request; LM Studio by loading the model again when the loaded
 * context is smaller; llama.cpp and vLLM run what they were started with.
 */
export function planContext(facts: ServerFacts, fixed: number): ContextPlan {
  const needed = fixed + WORKING_BUDGET_TOKENS;
  const wanted = Math.ceil(needed / CONTEXT_STEP) * CONTEXT_STEP;
  const max = facts.trainedContext;
  const asked = max === null ? wanted : Math.min(wanted, max);
  const serverName = facts.server === 'lm_studio' ? 'LM Studio' : facts.server === 'ollama' ? 'Ollama' : null;
  if (facts.resizable && serverName) {
    const loaded = facts.loadedContext;
    const reload = facts.server === 'lm_studio' && (loaded === null || loaded < needed);
    const keep = facts.server === 'lm_studio' && !reload && loaded !== null;
    const window = keep ? (loaded as number) : asked;
    const enough = window >= needed;
    return {
      needed,
      request: keep ? null : asked,
      reload,
      window,
      enough,
      summary: enough
        ? keep
          ? `${serverName} runs the model with ${tokens(window)} of context; a turn needs ${tokens(needed)}.`
          : `${serverName} is asked for ${tokens(window)} of context; a turn needs ${tokens(needed)}.`
        : `The model was trained for at most ${tokens(max ?? window)} of context, less than the ${tokens(needed)} a turn needs (system prompt, tools and a working budget).`,
    };
  }
  const window = facts.loadedContext ?? max ?? UNKNOWN_CONTEXT_WINDOW;
  const enough = window >= needed;
  const where = facts.server === 'llama_cpp' ? 'llama.cpp’s server' : facts.server === 'vllm' ? 'vLLM' : null;
  return {
    needed,
    request: null,
    reload: false,
    window,
    enough,
    summary: where
      ? enough
        ? `${where} runs the model with ${tokens(window)} of context; a turn needs ${tokens(needed)}.`
        : `${where} runs the model with ${tokens(window)} of context, less than the ${tokens(needed)} a turn needs: start it with a larger context (${facts.server === 'vllm' ? '--max-model-len' : '--ctx-size'} ${Math.min(wanted, max ?? wanted)}).`
      : enough
        ? `The model takes ${tokens(window)} of context; a turn needs ${tokens(needed)}.`
        : `The model takes ${tokens(window)} of context, less than the ${tokens(needed)} a turn needs.`,
  };
}
