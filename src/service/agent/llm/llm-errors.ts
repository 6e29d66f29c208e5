import { SecretMasker } from '../../events/secret-masker';

/** The runtime status ids (api-contract §14) that LLM outcomes are reported with. */
export const LLM_STATUS = {
  retry: 'STATUS$LLM_RETRY',
  error: 'STATUS$ERROR',
  authentication: 'STATUS$ERROR_LLM_AUTHENTICATION',
  serviceUnavailable: 'STATUS$ERROR_LLM_SERVICE_UNAVAILABLE',
  internalServerError: 'STATUS$ERROR_LLM_INTERNAL_SERVER_ERROR',
  outOfCredits: 'STATUS$ERROR_LLM_OUT_OF_CREDITS',
  contentPolicy: 'STATUS$ERROR_LLM_CONTENT_POLICY_VIOLATION',
  rateLimitedStopped: 'CHAT_INTERFACE$AGENT_RATE_LIMITED_STOPPED_MESSAGE',
} as const;

export type LlmStatusId = (typeof LLM_STATUS)[keyof typeof LLM_STATUS];

/**
 * - `rate_limit`, `transient`: retried with backoff; the error is thrown once retries are exhausted.
 * - `context_overflow`: the conversation must be condensed, then the step runs again.
 * - `tools_unsupported`: a 400 about native tools; the conversation switches to the text tool format.
 * - `aborted`: the caller's signal (Stop) ended the request or a wait.
 */
export type LlmErrorKind =
  | 'auth'
  | 'rate_limit'
  | 'transient'
  | 'context_overflow'
  | 'out_of_credits'
  | 'content_policy'
  | 'not_found'
  | 'tools_unsupported'
  | 'aborted'
  | 'other';

export interface LlmErrorOptions {
  /** The runtime status id to report when this error ends a step; null when it does not (overflow, Stop). */
  statusId: LlmStatusId | null;
  /** The HTTP status, when there was one. */
  httpStatus?: number;
  /** The server's `Retry-After`, in seconds. */
  retryAfterS?: number;
  /** Model calls made, including retries (set when the error leaves `complete`). */
  attempts?: number;
  cause?: unknown;
}

/** A classified LLM failure. Its message is masked: it never contains the API key. */
export class LlmError extends Error {
  override readonly name = 'LlmError';
  readonly statusId: LlmStatusId | null;
  readonly httpStatus: number | undefined;
  readonly retryAfterS: number | undefined;
  attempts: number;

  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    options: LlmErrorOptions,
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.statusId = options.statusId;
    this.httpStatus = options.httpStatus;
    this.retryAfterS = options.retryAfterS;
    this.attempts = options.attempts ?? 1;
  }

  get retryable(): boolean {
    return this.kind === 'rate_limit' || this.kind === 'transient';
  }
}

/** Raised inside a call when the server stays silent too long or the call runs too long. */
export class LlmTimeout extends Error {
  override readonly name = 'LlmTimeout';
}

/** `Retry-After` (seconds or an HTTP date) or `retry-after-ms`, in seconds. */
export function retryAfterSeconds(
  headers: Record<string, string> | undefined,
  now = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const ms = Number(lower['retry-after-ms']);
  if (lower['retry-after-ms'] !== undefined && Number.isFinite(ms) && ms >= 0) return ms / 1000;
  const value = lower['retry-after']?.trim();
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

/** Hides the API key (and any bearer token) in a message. */
export function maskMessage(message: string, secrets: string[]): string {
  return new SecretMasker(secrets).maskText(message).replace(/(Bearer\s+)[^\s"',]+/gi, '$1<secret_hidden>');
}

export function abortedError(cause?: unknown): LlmError {
  return new LlmError('aborted', 'The LLM request was stopped.', { statusId: null, cause });
}
