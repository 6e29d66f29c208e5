import type { ClassifyContext } from './classify-llm-error';
import { LLM_STATUS, LlmError, abortedError } from './llm-errors';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { LlmClient, LlmClientConfig, LlmRequest, LlmResponse, LlmRetryInfo } from './llm-types';
import { resolveModelRoute } from './model-routing';
import { serverRoot } from './model-server-probe';
import { supportsNativeTools } from './model-table';
import { PriceTable } from './prices';
import { prepareCall, type PreparedCall } from './request-preparation';
import { DEFAULT_LLM_TIMING, retryDelayS, type LlmTiming } from './retry-policy';
import type { StreamedCallResult } from './streamed-call';
import { estimatedUsage, providerReportedCost, reportedUsage, resolveCost } from './usage-and-cost';

/** One signal for the client's and the call's; `AbortSignal.any` only when both are set (it is not free). */
function combinedSignal(...signals: (AbortSignal | undefined)[]): AbortSignal {
  const given = signals.filter((s): s is AbortSignal => s !== undefined);
  if (given.length === 1) return given[0] as AbortSignal;
  return AbortSignal.any(given);
}

/** Providers served by Ollama, whose native chat API takes the context size. */
const OLLAMA_PROVIDERS = new Set(['ollama', 'ollama_chat']);

type SdkCalls = typeof import('./sdk-calls');
let sdkCalls: Promise<SdkCalls> | undefined;

/** The AI SDK is loaded on the first model call, not when the service starts. */
function loadSdkCalls(): Promise<SdkCalls> {
  sdkCalls ??= import('./sdk-calls');
  return sdkCalls;
}

function isEmpty(result: StreamedCallResult): boolean {
  return result.text.trim() === '' && result.toolCalls.length === 0;
}

function retryInfo(error: LlmError, attempt: number, retryInS: number, maxRetries: number): LlmRetryInfo {
  const rateLimited = error.kind === 'rate_limit';
  return {
    attempt,
    maxRetries,
    retryInS,
    kind: rateLimited ? 'rate_limit' : 'transient',
    agentState: rateLimited ? 'rate_limited' : 'running',
    statusId: LLM_STATUS.retry,
    message: `Retrying LLM request, ${attempt} / ${maxRetries}`,
    error,
  };
}

/**
 * Builds the client for a model string (see `resolveModelRoute`; throws `ModelRoutingError` when the
 * provider cannot be told). Each `complete` streams one reply through the AI SDK, retries rate limits
 * and transient failures per agent-behaviour §2.5, and throws a classified `LlmError` otherwise.
 */
export function createLlmClient(config: LlmClientConfig): LlmClient {
  const route = resolveModelRoute(config.model, config.baseUrl);
  let model: LanguageModelV4 | undefined;
  const timing: LlmTiming = { ...DEFAULT_LLM_TIMING, ...config.timing };
  const prices = config.prices ?? new PriceTable();
  const secrets = config.apiKey ? [config.apiKey] : [];
  const ollamaNative =
    config.contextLength !== undefined && OLLAMA_PROVIDERS.has(route.providerName)
      ? { root: serverRoot(route.baseUrl), modelId: route.modelId, numCtx: config.contextLength }
      : null;

  function toResponse(call: PreparedCall, result: StreamedCallResult, attempts: number): LlmResponse {
    const completionChars = result.text.length + result.toolCalls.reduce((n, c) => n + c.rawArgs.length, 0);
    const usage = reportedUsage(result.usage) ?? estimatedUsage(call.promptChars, completionChars);
    const providerCostUsd = providerReportedCost(result.usage?.raw, result.headers);
    return {
      text: result.text,
      toolCalls: result.toolCalls,
      finishReason: result.finishReason,
      usage,
      cost: resolveCost({ route, usage, providerCostUsd, prices }),
      responseId: result.responseId,
      model: result.modelId || route.modelId,
      latencyMs: result.latencyMs,
      attempts,
      promptEstimate: estimatedUsage(call.promptChars, 0).prompt,
    };
  }

  /** A finished call that is not a usable reply, as an error (or null when it is fine). */
  function replyProblem(result: StreamedCallResult): LlmError | null {
    if (result.finishReason === 'content-filter') {
      return new LlmError('content_policy', 'The LLM provider filtered the reply under its content policy.', {
        statusId: LLM_STATUS.contentPolicy,
      });
    }
    if (result.finishReason === 'interrupted' || result.finishReason === 'error') {
      return new LlmError('transient', 'The LLM stream ended before the reply was complete.', {
        statusId: LLM_STATUS.serviceUnavailable,
      });
    }
    if (isEmpty(result)) {
      return new LlmError('transient', 'The LLM returned an empty reply.', {
        statusId: LLM_STATUS.serviceUnavailable,
      });
    }
    return null;
  }

  async function complete(request: LlmRequest): Promise<LlmResponse> {
    const signal = combinedSignal(config.signal, request.signal);
    const toolFormat = request.toolFormat ?? (supportsNativeTools(route.model) ? 'native' : 'text');
    const call = prepareCall(route, request, toolFormat);
    const context: ClassifyContext = {
      model: route.model,
      baseUrl: route.baseUrl,
      secrets,
      nativeTools: call.nativeTools !== undefined,
    };
    const sdk = await loadSdkCalls();
    const native = ollamaNative && { ...ollamaNative, fetch: config.fetch ?? sdk.modelFetch };
    if (!native) model ??= sdk.languageModelFor(route, config.apiKey, config.fetch);
    let temperature = request.temperature;
    for (let attempt = 1; ; attempt += 1) {
      let error: LlmError;
      try {
        const result = native
          ? await sdk.ollamaChatCall(native, call, temperature, signal, timing)
          : await sdk.streamedCall(model as LanguageModelV4, call, temperature, signal, timing);
        const problem = replyProblem(result);
        if (!problem) return toResponse(call, result, attempt);
        error = problem;
        // An empty reply is retried with more randomness (agent-behaviour §2.1).
        if (isEmpty(result)) temperature = 1;
      } catch (thrown) {
        if (signal.aborted) throw abortedError(thrown);
        error = sdk.classifyLlmError(thrown, context);
      }
      error.attempts = attempt;
      if (!error.retryable || attempt > timing.maxRetries) throw error;
      const retryInS = retryDelayS(attempt, error.retryAfterS, timing);
      request.onRetry?.(retryInfo(error, attempt, retryInS, timing.maxRetries));
      try {
        await timing.sleep(retryInS * 1000, signal);
      } catch (reason) {
        throw abortedError(reason);
      }
    }
  }

  return { route, complete };
}
