import type { IncomingMessage } from 'node:http';
import type { ModelRoute } from '../agent/llm/model-routing';
import type { UpstreamApi } from './usage-meter';

/** The provider request of one gateway call: where it goes, with the real key, and its body. */
export interface UpstreamRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

const PATHS: Record<UpstreamApi, string> = {
  anthropic: '/messages',
  chat: '/chat/completions',
  responses: '/responses',
};

/** Client headers a provider needs to read the request as meant (API version and betas); no other goes out. */
const FORWARDED: Record<UpstreamApi, string[]> = {
  anthropic: ['anthropic-version', 'anthropic-beta'],
  chat: [],
  responses: ['openai-beta'],
};

/**
 * The upstream request: the route's URL, the client's protocol headers and the real key, never a header of
 * the sandbox's own (its placeholder token, cookies, anything else).
 */
export function upstreamRequest(
  api: UpstreamApi,
  route: ModelRoute,
  apiKey: string | null,
  req: IncomingMessage,
  body: Record<string, unknown>,
  path = PATHS[api],
): UpstreamRequest {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const name of FORWARDED[api]) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  if (api === 'anthropic') {
    headers['anthropic-version'] ??= '2023-06-01';
    if (apiKey) headers['x-api-key'] = apiKey;
  } else if (apiKey) {
    headers.authorization = `Bearer ${apiKey}`;
  }
  return { url: `${route.baseUrl}${path}`, headers, body: JSON.stringify(body) };
}

/** The request's body for the provider: the conversation's model, and Chat's usage in a stream. */
export function passthroughBody(api: UpstreamApi, body: Record<string, unknown>, modelId: string) {
  const out: Record<string, unknown> = { ...body, model: modelId };
  if (api === 'chat' && body.stream === true) {
    out.stream_options = { ...(body.stream_options as object | undefined), include_usage: true };
  }
  return out;
}

/** Text with every occurrence of the key hidden, for error bodies a provider may echo it in. */
export function withoutKey(text: string, apiKey: string | null): string {
  return apiKey ? text.split(apiKey).join('<secret_hidden>') : text;
}

/** A provider URL to show or log: its origin and path, never credentials or a query it may carry. */
export function shownUrl(url: string): string {
  const parsed = URL.parse(url);
  return parsed ? `${parsed.protocol}//${parsed.host}${parsed.pathname}` : '<invalid URL>';
}
