import { APICallError } from 'ai';
import { describe, expect, it } from 'vitest';
import { classifyLlmError, type ClassifyContext } from './classify-llm-error';
import { LlmTimeout, maskMessage, retryAfterSeconds } from './llm-errors';

const KEY = 'sk-unit-1234567890abcdef';
const context: ClassifyContext = {
  model: 'openai/gpt-4o',
  baseUrl: 'https://api.openai.com/v1',
  secrets: [KEY],
  nativeTools: true,
};

function apiError(statusCode: number | undefined, message: string, headers: Record<string, string> = {}) {
  return new APICallError({
    message,
    url: 'https://api.openai.com/v1/chat/completions',
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
    responseBody: JSON.stringify({ error: { message } }),
  });
}

describe('classifyLlmError', () => {
  it.each([
    [401, 'bad key', 'auth', 'STATUS$ERROR_LLM_AUTHENTICATION'],
    [403, 'forbidden', 'auth', 'STATUS$ERROR_LLM_AUTHENTICATION'],
    [429, 'slow down', 'rate_limit', 'CHAT_INTERFACE$AGENT_RATE_LIMITED_STOPPED_MESSAGE'],
    [402, 'pay up', 'out_of_credits', 'STATUS$ERROR_LLM_OUT_OF_CREDITS'],
    [413, 'request too large', 'context_overflow', null],
    [400, 'prompt is too long: 210000 tokens > 200000 maximum', 'context_overflow', null],
    [400, 'input length and max_tokens exceed context limit', 'context_overflow', null],
    [
      400,
      'Your request was flagged by our content policy',
      'content_policy',
      'STATUS$ERROR_LLM_CONTENT_POLICY_VIOLATION',
    ],
    [404, 'no such model', 'not_found', 'STATUS$ERROR'],
    [400, 'tool_choice is not supported for this model', 'tools_unsupported', null],
    [500, 'boom', 'transient', 'STATUS$ERROR_LLM_INTERNAL_SERVER_ERROR'],
    [502, 'bad gateway', 'transient', 'STATUS$ERROR_LLM_SERVICE_UNAVAILABLE'],
    [529, 'overloaded', 'transient', 'STATUS$ERROR_LLM_SERVICE_UNAVAILABLE'],
    [undefined, 'fetch failed', 'transient', 'STATUS$ERROR_LLM_SERVICE_UNAVAILABLE'],
    [409, 'conflict', 'other', 'STATUS$ERROR'],
  ])('classifies HTTP %s "%s" as %s', (status, message, kind, statusId) => {
    expect(classifyLlmError(apiError(status, message), context)).toMatchObject({ kind, statusId });
  });

  it('reads Retry-After from a 429', () => {
    expect(classifyLlmError(apiError(429, 'slow', { 'retry-after': '7' }), context).retryAfterS).toBe(7);
  });

  it('does not mistake a 400 about tools for unsupported tools when none were sent', () => {
    expect(classifyLlmError(apiError(400, 'tools: bad', {}), { ...context, nativeTools: false }).kind).toBe(
      'other',
    );
  });

  it('classifies in-stream provider errors', () => {
    expect(classifyLlmError({ type: 'overloaded_error', message: 'Overloaded' }, context).kind).toBe(
      'transient',
    );
    expect(classifyLlmError({ type: 'rate_limit_error', message: 'Too fast' }, context).kind).toBe(
      'rate_limit',
    );
    expect(classifyLlmError({ code: 'context_length_exceeded', message: 'too long' }, context).kind).toBe(
      'context_overflow',
    );
    const streamError = { message: 'Upstream busy', code: 'busy', statusCode: 503, isRetryable: true };
    expect(classifyLlmError(streamError, context)).toMatchObject({ kind: 'transient', httpStatus: 503 });
  });

  it('treats timeouts and broken connections as transient', () => {
    expect(classifyLlmError(new LlmTimeout('The LLM sent nothing for 120 s.'), context)).toMatchObject({
      kind: 'transient',
      message: 'The LLM sent nothing for 120 s.',
    });
    expect(
      classifyLlmError(new TypeError('terminated', { cause: { code: 'UND_ERR_SOCKET' } }), context).kind,
    ).toBe('transient');
  });

  it('reports anything else as a failed request with the key masked', () => {
    const error = classifyLlmError(new RangeError(`unexpected value near ${KEY}`), context);
    expect(error.kind).toBe('other');
    expect(error.message).toBe('LLM request failed: unexpected value near <secret_hidden>');
  });
});

describe('maskMessage', () => {
  it('hides the key and bearer tokens', () => {
    expect(maskMessage(`key ${KEY} and Authorization: Bearer abc.def`, [KEY])).toBe(
      'key <secret_hidden> and Authorization: Bearer <secret_hidden>',
    );
  });
});

describe('retryAfterSeconds', () => {
  it('reads seconds, milliseconds and HTTP dates', () => {
    expect(retryAfterSeconds({ 'Retry-After': '12' })).toBe(12);
    expect(retryAfterSeconds({ 'retry-after-ms': '1500', 'retry-after': '9' })).toBe(1.5);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterSeconds({ 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' }, now)).toBe(30);
    expect(retryAfterSeconds({ 'retry-after': 'later' })).toBeUndefined();
    expect(retryAfterSeconds(undefined)).toBeUndefined();
  });
});
