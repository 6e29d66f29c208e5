import type { IncomingMessage } from 'node:http';

/** The APIs agents call the gateway with, each in its provider's wire format. */
export type ClientApi = 'anthropic' | 'chat' | 'responses' | 'gemini';

/** What a request asks for: a model call, a token count or the model list, in one client API. */
export interface GatewayOperation {
  api: ClientApi;
  kind: 'call' | 'count_tokens' | 'models';
  /** A streamed answer was asked in the path (Gemini's `:streamGenerateContent`). */
  streamPath?: boolean;
}

/** Gemini's model calls: `/v1beta/models/{model}:generateContent` and `:streamGenerateContent`. */
const GEMINI_CALL = /^\/v1beta\/models\/[^/]+:(generateContent|streamGenerateContent|countTokens)$/;

/** The operation of a method and path (the query left out), or null for anything else. */
export function operationOf(method: string, path: string): GatewayOperation | null {
  if (method === 'GET') {
    if (path === '/v1/models') return { api: 'chat', kind: 'models' };
    if (path === '/v1beta/models') return { api: 'gemini', kind: 'models' };
    return null;
  }
  if (method !== 'POST') return null;
  switch (path) {
    case '/v1/messages':
      return { api: 'anthropic', kind: 'call' };
    case '/v1/messages/count_tokens':
      return { api: 'anthropic', kind: 'count_tokens' };
    case '/v1/chat/completions':
      return { api: 'chat', kind: 'call' };
    case '/v1/responses':
      return { api: 'responses', kind: 'call' };
  }
  const gemini = GEMINI_CALL.exec(path);
  if (!gemini) return null;
  if (gemini[1] === 'countTokens') return { api: 'gemini', kind: 'count_tokens' };
  return { api: 'gemini', kind: 'call', streamPath: gemini[1] === 'streamGenerateContent' };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Every credential the request presents, where each client puts its key: `Authorization: Bearer` (OpenAI,
 * Codex, opencode, Claude Code's auth token), `x-api-key` (Anthropic), and for Gemini `x-goog-api-key` or
 * `?key=`. All of them must be the same valid token.
 */
export function presentedCredentials(
  req: IncomingMessage,
  query: URLSearchParams,
  api: ClientApi | null,
): string[] {
  const found: string[] = [];
  const authorization = header(req, 'authorization');
  if (authorization !== undefined) found.push(/^Bearer\s+(.*)$/i.exec(authorization)?.[1]?.trim() ?? '');
  const apiKey = header(req, 'x-api-key');
  if (apiKey !== undefined) found.push(apiKey.trim());
  if (api === 'gemini') {
    const googKey = header(req, 'x-goog-api-key');
    if (googKey !== undefined) found.push(googKey.trim());
    for (const key of query.getAll('key')) found.push(key);
  }
  return found;
}

/** An error body in the client API's own format, so that its SDK reports the message. */
export function errorBody(api: ClientApi | null, status: number, message: string, code: string): unknown {
  switch (api) {
    case 'anthropic':
      return { type: 'error', error: { type: anthropicErrorType(status), message } };
    case 'gemini':
      return { error: { code: status, message, status: googleStatus(status) } };
    default:
      return { error: { message, type: code, param: null, code } };
  }
}

function anthropicErrorType(status: number): string {
  const types: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    402: 'billing_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    529: 'overloaded_error',
  };
  return types[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

function googleStatus(status: number): string {
  const statuses: Record<number, string> = {
    400: 'INVALID_ARGUMENT',
    401: 'UNAUTHENTICATED',
    402: 'FAILED_PRECONDITION',
    403: 'PERMISSION_DENIED',
    404: 'NOT_FOUND',
    413: 'INVALID_ARGUMENT',
    429: 'RESOURCE_EXHAUSTED',
    503: 'UNAVAILABLE',
  };
  return statuses[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
}

/** The message of an error body in any provider's format, or null. */
export function errorMessageOf(body: unknown): string | null {
  const value = body as { error?: { message?: unknown } | string; message?: unknown } | null;
  if (typeof value?.error === 'string') return value.error;
  if (typeof value?.error?.message === 'string') return value.error.message;
  if (typeof value?.message === 'string') return value.message;
  return null;
}
