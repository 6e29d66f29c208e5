import { fixedTokens, planContext, type ContextPlan } from './context-plan';
import { loadLmStudioModel } from './lm-studio-load';
import { LlmError } from './llm-errors';
import type { LlmClient, LlmClientConfig, LlmFactory, LlmRequest, LlmResponse } from './llm-types';
import type { ModelProbes } from './model-probes';
import { resolveModelRoute } from './model-routing';
import type { ServerFacts } from './model-server-probe';
import { noToolUseError, probeToolCalls, type ToolMode } from './tool-call-probe';

/** The status id of a local model's notices (context sizing, model loading). */
export const LOCAL_MODEL_STATUS = 'STATUS$LOCAL_MODEL';

/** What a local model's client reports to its conversation. */
export interface LocalModelHooks {
  /**
   * What was decided before the first agent call, or a problem with it (`warning`: it cannot give enough, or
   * LM Studio could not load the model); `plan` when the message is the context decided.
   */
  notice(kind: 'info' | 'warning', message: string, plan?: ContextPlan): void;
  /** The server counted fewer prompt tokens than were sent: it cut the start of the conversation. */
  truncated(notice: TruncationNotice): void;
}

export interface TruncationNotice {
  sentTokens: number;
  countedTokens: number;
  window: number;
  message: string;
}

/** What the client set up for its model: the facts, the context plan and the tool mode. */
export interface LocalModelSetup {
  facts: ServerFacts;
  plan: ContextPlan;
  /** Null when the server is not one Dockhand knows: tools go as for any provider. */
  toolMode: ToolMode | null;
}

/** Without a known window, a prompt counted below this share of the estimate was cut (tokenizers differ less). */
const COUNTED_SHARE = 0.6;

/**
 * Whether the server's prompt count says it cut the prompt. With the window known: what was sent did not
 * fit it and the count did (so a server that counts cached tokens apart is not taken for one that cuts);
 * otherwise the count is far below what was sent.
 */
export function promptTruncated(sent: number, counted: number, window: number | null): boolean {
  if (counted <= 0) return false;
  if (window === null) return counted < sent * COUNTED_SHARE;
  return sent > window && counted <= window && counted < sent * 0.9;
}

function plural(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * The model client of a conversation on a local server: before the first agent call it reads the server's
 * facts (cached per model), sizes the context (Ollama's `num_ctx`; LM Studio loads the model again when its
 * context is too small, saying so) and checks tool calls once per model (native, text, or refused). After
 * each call it compares the prompt tokens the server counted with those sent; a cut prompt is reported
 * and answered as a context overflow, so that the condenser runs before the next call.
 */
export function localModelClient(
  config: LlmClientConfig,
  factory: LlmFactory,
  probes: ModelProbes,
  hooks: LocalModelHooks,
  fetchFn: typeof globalThis.fetch = globalThis.fetch,
): LlmClient & { setup(): LocalModelSetup | null } {
  const route = resolveModelRoute(config.model, config.baseUrl);
  const plain = factory(config);
  let sized: LlmClient | null = null;
  let ready: Promise<LocalModelSetup> | null = null;
  let done: LocalModelSetup | null = null;

  async function sizeContext(facts: ServerFacts, plan: ContextPlan): Promise<ContextPlan> {
    if (!(facts.server === 'lm_studio' && plan.reload && plan.request !== null)) return plan;
    const was = facts.loadedContext === null ? 'not loaded' : `loaded with ${plural(facts.loadedContext)}`;
    hooks.notice(
      'info',
      `Loading ${route.modelId} in LM Studio with ${plural(plan.request)} tokens of context (it was ${was}).`,
    );
    try {
      const loaded = await loadLmStudioModel(route, plan.request, fetchFn);
      probes.updateFacts(route, { ...facts, loadedContext: loaded });
      return { ...plan, window: loaded, enough: loaded >= plan.needed };
    } catch (error) {
      hooks.notice('warning', error instanceof Error ? error.message : String(error));
      const window = facts.loadedContext ?? plan.window;
      return { ...plan, window, enough: window >= plan.needed };
    }
  }

  async function prepare(request: LlmRequest): Promise<LocalModelSetup> {
    const facts = await probes.serverFacts(route);
    const plan = planContext(facts, fixedTokens(route, request));
    if (facts.server === null) {
      // Not a model server Dockhand knows (or none answered): the client runs as for any provider.
      sized = plain;
      done = { facts, plan, toolMode: null };
      return done;
    }
    const sizedPlan = await sizeContext(facts, plan);
    hooks.notice(sizedPlan.enough ? 'info' : 'warning', sizedPlan.summary, sizedPlan);
    sized =
      facts.server === 'ollama' && sizedPlan.request !== null
        ? factory({ ...config, contextLength: sizedPlan.request })
        : plain;
    let toolMode = probes.toolMode(route);
    if (toolMode === null) {
      toolMode = await probeToolCalls(sized, request.signal);
      probes.setToolMode(route, toolMode);
    }
    done = { facts, plan: sizedPlan, toolMode };
    return done;
  }

  function checked(response: LlmResponse, window: number): LlmResponse {
    const sent = response.promptEstimate;
    if (response.usage.estimated || sent === undefined) return response;
    const counted = response.usage.prompt;
    if (!promptTruncated(sent, counted, window)) return response;
    const message =
      `The model server cut the start of the conversation: it read ${plural(counted)} of about ` +
      `${plural(sent)} prompt tokens (context ${plural(window)}). Older events are being condensed before the next call.`;
    hooks.truncated({ sentTokens: sent, countedTokens: counted, window, message });
    probes.forgetFacts(route); // the next conversation reads the server again
    throw new LlmError('context_overflow', message, { statusId: null });
  }

  async function complete(request: LlmRequest): Promise<LlmResponse> {
    if (!request.tools?.length && !done) {
      // A call made while the first step sets up (the title) waits for it: a server that loads the model
      // with each context asked for would otherwise load it twice.
      if (ready) await ready.catch(() => undefined);
      if (!done) return plain.complete(request);
    }
    if (request.tools?.length && !done) {
      ready ??= prepare(request);
      try {
        await ready;
      } catch (error) {
        ready = null; // probed again on the next step
        throw error;
      }
    }
    const setup = done as LocalModelSetup;
    if (request.tools?.length && setup.toolMode === 'none') throw noToolUseError(route.model);
    const toolFormat = request.toolFormat ?? (setup.toolMode === 'text' ? 'text' : undefined);
    const response = await (sized as LlmClient).complete({
      ...request,
      ...(toolFormat ? { toolFormat } : {}),
    });
    // Only a known server's count is compared: another may count differently (or be a test's script).
    return setup.facts.server === null ? response : checked(response, setup.plan.window);
  }

  return { route, complete, setup: () => done };
}
