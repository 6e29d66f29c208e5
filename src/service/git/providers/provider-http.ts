import type { z } from 'zod';
import type { GitProvider } from '../../../shared/api/settings';
import { httpError } from '../../http/errors';
import { authorization, PROVIDER_NAMES, providerFetch } from '../provider-api';

export type ApiProvider = Exclude<GitProvider, 'enterprise_sso'>;

export type QueryValues = Record<string, string | number | boolean | undefined>;

export interface ProviderPage<T> {
  body: T;
  headers: Headers;
}

export const TOKEN_REQUIRED = 'Git provider token required.';

/** Seconds to wait when a rate-limited provider names no reset time. */
const DEFAULT_RETRY_AFTER = 60;

/** Whether a response is a provider's rate limit: 429, or GitHub's 403 with an exhausted quota. */
export function isRateLimited(response: Response): boolean {
  if (response.status === 429) return true;
  return (
    response.status === 403 &&
    (response.headers.get('x-ratelimit-remaining') === '0' || response.headers.has('retry-after'))
  );
}

/** Seconds until a rate-limited provider accepts requests again, from its headers. */
export function retryAfterSeconds(headers: Headers, now: number = Date.now()): number {
  const retryAfter = Number(headers.get('retry-after'));
  if (headers.has('retry-after') && Number.isFinite(retryAfter)) return Math.max(1, Math.ceil(retryAfter));
  const reset = Number(headers.get('x-ratelimit-reset') ?? headers.get('ratelimit-reset'));
  if (reset > 0) return Math.max(1, Math.ceil(reset - now / 1000));
  return DEFAULT_RETRY_AFTER;
}

/** Whether an RFC 8288 `Link` header has a `rel="next"` link. */
export function hasNextLink(link: string | null): boolean {
  return link !== null && /;\s*rel="?[^";,]*\bnext\b/i.test(link);
}

/**
 * Authenticated GET requests to one provider's REST API, with the errors the user routes answer:
 * a rejected token -> 401, a rate limit -> 429 with Retry-After, any other failure -> 502
 * "<Provider> API error: <status> <text>". A 404 (or the given statuses) is null for the `optional` calls.
 */
export class ProviderHttp {
  private readonly name: string;

  constructor(
    readonly provider: ApiProvider,
    readonly host: string,
    readonly base: string,
    private readonly token: string,
  ) {
    this.name = PROVIDER_NAMES[provider];
  }

  /** JSON of `path` parsed with `schema`; throws on any non-2xx answer. */
  async json<S extends z.ZodType>(
    path: string,
    schema: S,
    query: QueryValues = {},
  ): Promise<ProviderPage<z.output<S>>> {
    const page = await this.optionalJson(path, schema, query);
    if (!page) throw this.failure(404, 'Not Found');
    return page;
  }

  /** Like `json`, but null when the provider answers one of the `absent` statuses. */
  async optionalJson<S extends z.ZodType>(
    path: string,
    schema: S,
    query: QueryValues = {},
    absent: readonly number[] = [404],
  ): Promise<ProviderPage<z.output<S>> | null> {
    const response = await this.get(path, query, 'application/json', absent);
    if (!response) return null;
    const data: unknown = await response.json().catch(() => undefined);
    const parsed = schema.safeParse(data);
    if (!parsed.success) throw httpError(502, `${this.name} API error: unexpected response from ${path}`);
    return { body: parsed.data, headers: response.headers };
  }

  /** A file's raw text, or null when the provider answers 404. */
  async optionalText(path: string, query: QueryValues = {}, accept = 'text/plain'): Promise<string | null> {
    const response = await this.get(path, query, accept, [404]);
    return response ? response.text() : null;
  }

  private url(path: string, query: QueryValues): string {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) params.set(key, String(value));
    }
    const search = params.toString();
    return `${this.base}${path}${search ? `?${search}` : ''}`;
  }

  private async get(
    path: string,
    query: QueryValues,
    accept: string,
    absent: readonly number[],
  ): Promise<Response | null> {
    const response = await providerFetch(
      this.url(path, query),
      { headers: { Authorization: authorization(this.provider, this.token), Accept: accept } },
      this.host,
    );
    if (response.ok) return response;
    await response.body?.cancel();
    if (absent.includes(response.status)) return null;
    if (response.status === 401) throw httpError(401, TOKEN_REQUIRED);
    if (isRateLimited(response)) {
      throw httpError(429, `${this.name} API rate limit exceeded`, {
        'Retry-After': String(retryAfterSeconds(response.headers)),
      });
    }
    throw this.failure(response.status, response.statusText);
  }

  private failure(status: number, text: string) {
    return httpError(502, `${this.name} API error: ${status} ${text}`.trim());
  }
}
