/** What the scripted LLM server plays, one step per model call (chat completion, response, message, Gemini). */

export interface ScriptedToolCall {
  /** Defaults to `call_<n>` (OpenAI) or `toolu_<n>` (Anthropic). */
  id?: string;
  name: string;
  /** An object is sent as JSON; a string is sent verbatim (it may be invalid JSON on purpose). */
  args?: Record<string, unknown> | string;
}

/**
 * Token counts of a reply. `input` is the uncached prompt part: OpenAI's `prompt_tokens` is sent as
 * input + cacheRead + cacheWrite, Anthropic's `input_tokens` as input alone (as the real APIs count).
 */
export interface ScriptedUsage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  /** A provider-reported cost in USD (OpenRouter's `usage.cost`). */
  cost?: number;
}

export interface ScriptedReply {
  text?: string;
  /**
   * The model's reasoning before its text, as reasoning servers send it in Chat Completions
   * (`reasoning_content`, as DeepSeek, vLLM and LM Studio do); the other formats leave it out.
   */
  reasoning?: string;
  toolCalls?: ScriptedToolCall[];
  /** `null` sends no usage at all; omitted means 100 input and 20 output tokens. */
  usage?: ScriptedUsage | null;
  /** The wire finish reason; defaults to `tool_calls`/`tool_use` with tool calls, else `stop`/`end_turn`. */
  finishReason?: string;
  /** The response id; defaults to `chatcmpl-<n>` or `msg_<n>`. */
  id?: string;
  /** The model name in the response; defaults to the requested one. */
  model?: string;
  /** Extra response headers, e.g. `x-litellm-response-cost`. */
  headers?: Record<string, string>;
  /** Delay before each streamed event (slow chunks). */
  chunkDelayMs?: number;
}

export type ScriptedFault =
  /** An HTTP error in the API's own error format. */
  | {
      fault: 'status';
      status: number;
      message?: string;
      /** Sent as the `Retry-After` header. */
      retryAfter?: number | string;
      /** The provider's error type/code, e.g. `insufficient_quota`. */
      code?: string;
      headers?: Record<string, string>;
    }
  /** A 200 whose body (or first stream event) is not valid JSON. */
  | { fault: 'malformed-json' }
  /** The reply starts streaming, then the connection is destroyed after `afterEvents` events (default 2). */
  | { fault: 'drop'; reply?: ScriptedReply; afterEvents?: number }
  /**
   * The server never answers (no headers at all), or with `afterEvents` it streams that many events of
   * `reply` and then stalls, until the client closes the connection.
   */
  | { fault: 'hang'; reply?: ScriptedReply; afterEvents?: number };

export type ScriptedOutcome = ScriptedReply | ScriptedFault;

/** A step is an outcome, or a function of the recorded request that returns one. */
export type ScriptedStep =
  ScriptedOutcome | ((request: RecordedLlmRequest) => ScriptedOutcome | Promise<ScriptedOutcome>);

export type ScriptedApi =
  'openai' | 'anthropic' | 'responses' | 'gemini' | 'models' | 'ollama-tags' | 'unknown';

export interface RecordedLlmRequest {
  /** Position among all requests the server received, from 0. */
  index: number;
  method: string;
  path: string;
  api: ScriptedApi;
  /** Lower-cased header names; values as sent, including `authorization` / `x-api-key`. */
  headers: Record<string, string>;
  /** The credential as sent: the `authorization` header, else `x-api-key`, `x-goog-api-key` or `?key=`. */
  auth: string | undefined;
  rawBody: string;
  /** The parsed JSON body, or undefined when there is none or it is not JSON. */
  body: Record<string, unknown> | undefined;
  stream: boolean;
  /** Set when the client closed the connection before the response was complete. */
  clientClosed: boolean;
  /** `performance.now()` when the request arrived, and when its response ended (null until then). */
  startedAt: number;
  endedAt: number | null;
}

export function isFault(outcome: ScriptedOutcome): outcome is ScriptedFault {
  return 'fault' in outcome;
}

/** Ready-made faults for the common cases. */
export const faults = {
  status(status: number, message?: string, extra: Partial<Extract<ScriptedFault, { fault: 'status' }>> = {}) {
    return { fault: 'status', status, ...(message === undefined ? {} : { message }), ...extra } as const;
  },
  rateLimited(retryAfterS?: number): ScriptedFault {
    return faults.status(429, 'Rate limit reached for requests', {
      code: 'rate_limit_exceeded',
      ...(retryAfterS === undefined ? {} : { retryAfter: retryAfterS }),
    });
  },
  serverError(status = 500): ScriptedFault {
    return faults.status(status, status === 500 ? 'The server had an error' : 'The service is overloaded');
  },
  unauthorized(): ScriptedFault {
    return faults.status(401, 'Incorrect API key provided', { code: 'invalid_api_key' });
  },
  outOfCredits(): ScriptedFault {
    return faults.status(402, 'Insufficient credits: add more to continue', { code: 'insufficient_credits' });
  },
  modelNotFound(): ScriptedFault {
    return faults.status(404, 'The model does not exist or you do not have access to it', {
      code: 'model_not_found',
    });
  },
  contextExceeded(): ScriptedFault {
    return faults.status(
      400,
      "This model's maximum context length is 8192 tokens: context length exceeded by your messages",
      { code: 'context_length_exceeded' },
    );
  },
  contentPolicy(): ScriptedFault {
    return faults.status(400, 'Your request was rejected as a result of our safety system', {
      code: 'content_policy_violation',
    });
  },
  malformedJson(): ScriptedFault {
    return { fault: 'malformed-json' };
  },
  dropStream(
    afterEvents = 2,
    reply: ScriptedReply = { text: 'This reply is cut off before its end.' },
  ): ScriptedFault {
    return { fault: 'drop', reply, afterEvents };
  },
  hang(): ScriptedFault {
    return { fault: 'hang' };
  },
};
