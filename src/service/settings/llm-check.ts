import type { LlmCheckProblem, LlmCheckRequest, LlmCheckResult } from '../../shared/api/llm-check';
import { LlmError, maskMessage } from '../agent/llm/llm-errors';
import type { LlmClientConfig, LlmFactory } from '../agent/llm/llm-types';
import { ModelRoutingError, needsApiKey, resolveModelRoute } from '../agent/llm/model-routing';
import type { ModelProbe } from '../../shared/api/model-probe';
import type { ModelProbes } from '../agent/llm/model-probes';
import { probeToolCalls } from '../agent/llm/tool-call-probe';
import { probeView } from './model-probe';
import type { SavedLlm } from './settings-service';

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** A check must answer while the user waits: no retries, short timeouts. */
const CHECK_TIMING: LlmClientConfig['timing'] = {
  maxRetries: 0,
  idleTimeoutMs: 20_000,
  totalTimeoutMs: 30_000,
};

const FIXES: Record<LlmCheckProblem, string | null> = {
  auth: 'Check the API key: copy it again from the provider’s console and make sure it belongs to this provider.',
  unreachable:
    'Check the base URL, and that the server is running and reachable from this computer (for a local server such as Ollama, start it first).',
  not_found: 'Check the model name: it must be one the provider or server offers.',
  rate_limit: 'The provider is limiting requests: wait a moment and test again.',
  out_of_credits: 'Add credits or a payment method to the provider account.',
  unavailable: 'The provider is having problems: test again in a minute.',
  missing_key: 'Enter the provider’s API key, or choose a local model.',
  other: null,
};

function problemOf(error: LlmError): LlmCheckProblem {
  switch (error.kind) {
    case 'auth':
    case 'not_found':
    case 'rate_limit':
    case 'out_of_credits':
      return error.kind;
    case 'transient':
      return error.httpStatus === undefined ? 'unreachable' : 'unavailable';
    default:
      return 'other';
  }
}

function failure(
  problem: LlmCheckProblem,
  message: string,
  keySource: LlmCheckResult['key_source'],
): LlmCheckResult {
  return {
    ok: false,
    problem,
    message: sentence(message),
    fix: FIXES[problem],
    model: null,
    latency_ms: null,
    key_source: keySource,
  };
}

/** Provider and base URL (normalised: trailing slashes, letter case of scheme and host, default port) of a model. */
function endpointOf(model: string, baseUrl: string | null | undefined): string | null {
  try {
    const route = resolveModelRoute(model, baseUrl);
    return `${route.providerName} ${new URL(route.baseUrl).href.replace(/\/+$/, '')}`;
  } catch {
    return null;
  }
}

/** The saved key when the request names the saved endpoint, else null: a write-only key goes nowhere else. */
function savedKeyFor(request: LlmCheckRequest, saved: SavedLlm): string | null {
  if (!saved.apiKey || !saved.model) return null;
  const target = endpointOf(request.llm_model, request.llm_base_url);
  return target !== null && target === endpointOf(saved.model, saved.baseUrl) ? saved.apiKey : null;
}

/**
 * After a model answered: its server's facts read again and, for a model server Dockhand knows, the one-shot
 * tool-call probe (with the context a conversation would ask for). A probe that fails leaves the mode unknown.
 */
async function probeModel(
  model: string,
  baseUrl: string | null,
  apiKey: string | null,
  llmFactory: LlmFactory,
  probes: ModelProbes,
): Promise<ModelProbe> {
  const route = resolveModelRoute(model, baseUrl);
  const facts = await probes.serverFacts(route, true);
  const view = probeView(route, facts, probes);
  if (facts.server === null) return view;
  const contextLength = facts.server === 'ollama' ? view.context_window : undefined;
  try {
    const client = llmFactory({
      model,
      apiKey,
      baseUrl,
      timing: CHECK_TIMING,
      ...(contextLength === undefined ? {} : { contextLength }),
    });
    probes.setToolMode(route, await probeToolCalls(client));
  } catch {
    return view; // the mode stays as it was: the first conversation probes again
  }
  return { ...view, tool_mode: probes.toolMode(route) };
}

/**
 * Sends one tiny request to the model as `request` configures it (a client from the service's `llmFactory`),
 * the key from the request or else the saved one — only when the request names the saved provider and base
 * URL — and says whether it answered or, classified, why not. The key never appears in the result.
 */
export async function checkLlm(
  request: LlmCheckRequest,
  saved: SavedLlm,
  llmFactory: LlmFactory,
  probes: ModelProbes,
): Promise<LlmCheckResult> {
  const typed = request.llm_api_key ?? null;
  const storedKey = typed === null ? savedKeyFor(request, saved) : null;
  const keySource = typed !== null ? (typed ? 'request' : 'none') : storedKey ? 'stored' : 'none';
  const key = keySource === 'request' ? typed : storedKey;
  const baseUrl = request.llm_base_url || null;
  if (!key && needsApiKey(request.llm_model, baseUrl)) {
    const withheld = typed === null && saved.apiKey !== null;
    return failure(
      'missing_key',
      withheld
        ? `The saved API key is sent only to the saved provider and base URL; enter the key to test ${request.llm_model} here`
        : `${request.llm_model} needs an API key and none is set`,
      keySource,
    );
  }
  try {
    const client = llmFactory({ model: request.llm_model, apiKey: key, baseUrl, timing: CHECK_TIMING });
    const answer = await client.complete({
      system: 'You are a connection check. Reply with the single word OK.',
      messages: [{ role: 'user', content: 'Reply with OK.' }],
      maxOutputTokens: 16,
    });
    const latencyMs = Math.round(answer.latencyMs);
    const probe = await probeModel(request.llm_model, baseUrl, key, llmFactory, probes);
    return {
      ok: true,
      problem: null,
      message: `${request.llm_model} answered in ${latencyMs} ms.`,
      fix: null,
      model: answer.model,
      latency_ms: latencyMs,
      key_source: keySource,
      probe,
    };
  } catch (error) {
    if (error instanceof LlmError) return failure(problemOf(error), error.message, keySource);
    const text = error instanceof Error ? error.message : String(error);
    const masked = maskMessage(text, key ? [key] : []);
    return failure(
      'other',
      error instanceof ModelRoutingError ? masked : `The check failed: ${masked}`,
      keySource,
    );
  }
}
