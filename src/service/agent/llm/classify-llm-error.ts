import { APICallError } from 'ai';
import { LLM_STATUS, LlmError, LlmTimeout, maskMessage, retryAfterSeconds } from './llm-errors';

export interface ClassifyContext {
  /** The model string as configured and the base URL used, for the 404 message. */
  model: string;
  baseUrl: string;
  /** Values to mask in messages: the API key. */
  secrets: string[];
  /** Whether the request carried native tool definitions (a 400 about tools then means "unsupported"). */
  nativeTools: boolean;
}

const OVERFLOW =
  /context.length|context_length|prompt is too long|maximum context|input length and max_tokens exceed|too many tokens|context window|context size/;
const CREDITS = /insufficient_quota|insufficient.credits|credit balance|exceeded your current quota|billing/;
const CONTENT_POLICY =
  /content.?policy|content_filter|content management policy|safety system|responsible ai|flagged/;
const AUTH = /authentication_error|permission_error|invalid.api.key|incorrect api key|invalid x-api-key/;
const TOOLS = /\btools?\b|tool_choice|function.?call/;
/** Generic errors that fetch and the providers' stream parsers raise when a response breaks. */
const TRANSPORT_MESSAGES = /fetch failed|terminated|network|socket|other side closed|stream error|json/i;
const TRANSPORT_ERRORS = new Set([
  'AI_APICallError',
  'AI_JSONParseError',
  'AI_TypeValidationError',
  'AI_EmptyResponseBodyError',
  'AI_InvalidResponseDataError',
]);

interface ErrorFacts {
  httpStatus?: number;
  /** The provider's message, unmasked. */
  message: string;
  /** Everything said about the error, lower-cased, for pattern matching. */
  text: string;
  headers?: Record<string, string>;
  /** No HTTP status, but the transport or the response framing failed. */
  transport: boolean;
}

function causeChain(error: unknown): string[] {
  const messages: string[] = [];
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth += 1) {
    messages.push(
      e.message,
      (e as { code?: unknown }).code === undefined ? '' : String((e as { code?: unknown }).code),
    );
  }
  return messages;
}

function factsOf(error: unknown): ErrorFacts {
  if (APICallError.isInstance(error)) {
    return {
      httpStatus: error.statusCode,
      message: error.message,
      text: [error.responseBody ?? '', ...causeChain(error)].join(' ').toLowerCase(),
      headers: error.responseHeaders,
      // A failure after a 2xx means the response broke off or could not be read.
      transport: error.statusCode === undefined || error.statusCode < 400,
    };
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const generic = error.name === 'Error' || error.name === 'TypeError';
    return {
      message: error.message,
      text: causeChain(error).join(' ').toLowerCase(),
      transport:
        TRANSPORT_ERRORS.has(error.name) ||
        (generic && TRANSPORT_MESSAGES.test(error.message)) ||
        (typeof code === 'string' && /^(E[A-Z]+|UND_ERR)/.test(code)),
    };
  }
  // Providers report in-stream errors as plain objects: `{type, message}` (Anthropic), `{message, code}`, or
  // the SDK's provider stream error `{message, type, code, statusCode, isRetryable}`.
  if (error && typeof error === 'object') {
    const fields = error as { message?: unknown; type?: unknown; code?: unknown; statusCode?: unknown };
    const message = typeof fields.message === 'string' ? fields.message : JSON.stringify(error);
    const type = `${String(fields.type ?? '')} ${String(fields.code ?? '')}`;
    const overloaded = /overloaded_error|api_error|server_error/.test(type);
    const status = typeof fields.statusCode === 'number' ? fields.statusCode : undefined;
    return {
      httpStatus: status ?? (/rate_limit/.test(type) ? 429 : overloaded ? 503 : undefined),
      message,
      text: `${type} ${message}`.toLowerCase(),
      transport: false,
    };
  }
  return { message: String(error), text: String(error).toLowerCase(), transport: false };
}

/** Maps any failure of a model call to an `LlmError` (agent-behaviour §2.5). */
export function classifyLlmError(error: unknown, context: ClassifyContext): LlmError {
  if (error instanceof LlmError) return error;
  const facts = factsOf(error);
  const detail = maskMessage(facts.message, context.secrets);
  const text = facts.text + ' ' + facts.message.toLowerCase();
  const base = { httpStatus: facts.httpStatus, cause: error };
  const status = facts.httpStatus;

  if (error instanceof LlmTimeout) {
    return new LlmError('transient', error.message, { ...base, statusId: LLM_STATUS.serviceUnavailable });
  }
  if (status === 401 || status === 403 || AUTH.test(text)) {
    return new LlmError('auth', `The LLM provider rejected the credentials: ${detail}`, {
      ...base,
      statusId: LLM_STATUS.authentication,
    });
  }
  if (status === 402 || CREDITS.test(text)) {
    return new LlmError('out_of_credits', `The LLM account is out of credits: ${detail}`, {
      ...base,
      statusId: LLM_STATUS.outOfCredits,
    });
  }
  if (status === 429) {
    return new LlmError('rate_limit', `The LLM provider is rate limiting requests: ${detail}`, {
      ...base,
      statusId: LLM_STATUS.rateLimitedStopped,
      retryAfterS: retryAfterSeconds(facts.headers),
    });
  }
  if (status === 413 || OVERFLOW.test(text)) {
    return new LlmError(
      'context_overflow',
      `The conversation does not fit the model's context window: ${detail}`,
      {
        ...base,
        statusId: null,
      },
    );
  }
  if (CONTENT_POLICY.test(text)) {
    return new LlmError(
      'content_policy',
      `The LLM provider refused the request under its content policy: ${detail}`,
      {
        ...base,
        statusId: LLM_STATUS.contentPolicy,
      },
    );
  }
  if (status === 404) {
    return new LlmError('not_found', `Model ${context.model} not found at ${context.baseUrl}`, {
      ...base,
      statusId: LLM_STATUS.error,
    });
  }
  if (status === 400 && context.nativeTools && TOOLS.test(text)) {
    return new LlmError('tools_unsupported', `The model does not accept native tool calls: ${detail}`, {
      ...base,
      statusId: null,
    });
  }
  if ((status !== undefined && (status >= 500 || status === 408)) || facts.transport) {
    return new LlmError('transient', `The LLM service is unavailable: ${detail}`, {
      ...base,
      statusId: status === 500 ? LLM_STATUS.internalServerError : LLM_STATUS.serviceUnavailable,
      retryAfterS: retryAfterSeconds(facts.headers),
    });
  }
  return new LlmError('other', `LLM request failed: ${detail}`, { ...base, statusId: LLM_STATUS.error });
}
