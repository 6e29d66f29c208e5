import type { JSONSchema7, ModelMessage } from 'ai';
import type { LlmError } from './llm-errors';
import type { ModelRoute } from './model-routing';
import type { LlmTiming } from './retry-policy';
import type { PriceTable } from './prices';
import type { LlmCost, LlmUsage } from './usage-and-cost';

export type { LlmCost, LlmUsage } from './usage-and-cost';
export type { ModelMessage } from 'ai';

/** A tool the model may call, described by a JSON schema of its arguments. */
export interface LlmToolDefinition {
  name: string;
  description: string;
  parameters: JSONSchema7;
}

/**
 * How tools reach the model: `native` tool definitions, or OpenHands' text format
 * (`<function=N><parameter=P>V</parameter></function>`) for models without native tool calls.
 */
export type ToolCallFormat = 'native' | 'text';

export interface LlmToolCall {
  id: string;
  name: string;
  /** The arguments exactly as the model wrote them. */
  rawArgs: string;
  /** The parsed arguments, or undefined when they are not a JSON object (see `argsError`). */
  args: Record<string, unknown> | undefined;
  argsError?: string;
}

export interface LlmRetryInfo {
  /** The retry about to happen, from 1. */
  attempt: number;
  maxRetries: number;
  /** The wait before it, in seconds. */
  retryInS: number;
  kind: 'rate_limit' | 'transient';
  /** The agent state while waiting: `rate_limited` for a rate limit, else it stays `running`. */
  agentState: 'rate_limited' | 'running';
  statusId: 'STATUS$LLM_RETRY';
  /** "Retrying LLM request, n / 5". */
  message: string;
  error: LlmError;
}

export interface LlmRequest {
  system: string;
  messages: ModelMessage[];
  tools?: LlmToolDefinition[];
  /** Defaults to `native`, or `text` when the model table says the model has no native tool calls. */
  toolFormat?: ToolCallFormat;
  temperature?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  /** Stop: aborts the call and any retry wait. */
  signal?: AbortSignal;
  /** Called before each retry wait. */
  onRetry?: (info: LlmRetryInfo) => void;
}

export interface LlmResponse {
  /** The reply's text (in the text tool format: the text before the first call). */
  text: string;
  toolCalls: LlmToolCall[];
  finishReason: string;
  usage: LlmUsage;
  cost: LlmCost;
  responseId: string;
  /** The model that answered, as the provider names it. */
  model: string;
  /** Duration of the successful attempt. */
  latencyMs: number;
  /** Model calls made, including retries. */
  attempts: number;
  /** The prompt sent, in tokens estimated as characters / 4 (to compare with what the server counted). */
  promptEstimate?: number;
}

/** Settings-like configuration of a client. */
export interface LlmClientConfig {
  /** A LiteLLM-style model string, e.g. `anthropic/claude-sonnet-4-5-20250929` or `ollama/qwen2.5-coder`. */
  model: string;
  apiKey?: string | null;
  /** `llm_base_url`: overrides the provider's URL. */
  baseUrl?: string | null;
  /** Aborts every call of this client (e.g. when its conversation closes). */
  signal?: AbortSignal;
  /** Prices for the cost (`loadPriceTable(<data>/prices.json).table`); the shipped table by default. */
  prices?: PriceTable;
  timing?: Partial<LlmTiming>;
  /** The HTTP transport (a proxy-aware fetch, or a test's); global fetch by default. */
  fetch?: typeof globalThis.fetch;
  /**
   * The context to run the model with, where the server takes it per request: an Ollama model is then called
   * through Ollama's native chat API with `options.num_ctx` (its OpenAI-compatible layer ignores it).
   */
  contextLength?: number;
}

/** The seam between the agent and the model providers. */
export interface LlmClient {
  readonly route: ModelRoute;
  /** One model call, streamed, with retries and classification of failures (throws `LlmError`). */
  complete(request: LlmRequest): Promise<LlmResponse>;
}

/** Makes the model client of a conversation's agent (`createLlmClient` unless the service is given another). */
export type LlmFactory = (config: LlmClientConfig) => LlmClient;
