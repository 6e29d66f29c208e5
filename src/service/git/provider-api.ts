import type { GitProvider } from '../../shared/api/settings';
import { HttpError, httpError } from '../http/errors';

export const DEFAULT_HOSTS: Record<Exclude<GitProvider, 'enterprise_sso'>, string> = {
  github: 'github.com',
  gitlab: 'gitlab.com',
  bitbucket: 'bitbucket.org',
};

export const PROVIDER_NAMES: Record<GitProvider, string> = {
  github: 'GitHub',
  gitlab: 'GitLab',
  bitbucket: 'Bitbucket',
  enterprise_sso: 'Enterprise SSO',
};

/**
 * The base URL of a provider's REST API on a host. Injected so tests can point providers at fake
 * servers on 127.0.0.1; production uses the public layouts (github.com and GitHub Enterprise, GitLab,
 * Bitbucket Cloud).
 */
export type ProviderApiBase = (provider: GitProvider, host: string) => string;

export const publicApiBase: ProviderApiBase = (provider, host) => {
  switch (provider) {
    case 'github':
      return host === 'github.com' ? 'https://api.github.com' : `https://${host}/api/v3`;
    case 'gitlab':
      return `https://${host}/api/v4`;
    case 'bitbucket':
      return host === 'bitbucket.org' ? 'https://api.bitbucket.org/2.0' : `https://${host}/rest/api/2.0`;
    case 'enterprise_sso':
      return `https://${host}`;
  }
};

/** The Authorization header each provider expects for a personal token. */
export function authorization(provider: GitProvider, token: string): string {
  // Bitbucket app passwords come as "username:app_password" and use Basic auth.
  if (provider === 'bitbucket' && token.includes(':'))
    return `Basic ${Buffer.from(token).toString('base64')}`;
  return `Bearer ${token}`;
}

const CURRENT_USER_PATH: Record<Exclude<GitProvider, 'enterprise_sso'>, string> = {
  github: '/user',
  gitlab: '/user',
  bitbucket: '/user',
};

/** Calls a provider API; a network failure becomes 502 "Could not reach <host>: <reason>". */
/** 502 "Could not reach <host>": the provider did not answer at all (offline, DNS, refused, timeout). */
export class ProviderUnreachable extends HttpError {
  constructor(
    readonly host: string,
    reason: string,
  ) {
    super(502, { detail: `Could not reach ${host}: ${reason}` });
  }
}

export async function providerFetch(url: string, init: RequestInit, host: string): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
    throw new ProviderUnreachable(host, reason);
  }
}

/**
 * Checks a token with the provider's current-user API. Rejected -> 401, unreachable or failing -> 502.
 * Returns the provider's user id.
 */
export async function verifyToken(
  apiBase: ProviderApiBase,
  provider: Exclude<GitProvider, 'enterprise_sso'>,
  host: string,
  token: string,
): Promise<string | null> {
  const url = `${apiBase(provider, host)}${CURRENT_USER_PATH[provider]}`;
  const response = await providerFetch(
    url,
    { headers: { Authorization: authorization(provider, token), Accept: 'application/json' } },
    host,
  );
  if (response.status === 401 || response.status === 403) {
    throw httpError(401, `Invalid token. Please make sure it is a valid ${provider} token.`);
  }
  if (!response.ok) {
    throw httpError(502, `${PROVIDER_NAMES[provider]} API error: ${response.status} ${response.statusText}`);
  }
  const user = (await response.json().catch(() => ({}))) as {
    id?: unknown;
    uuid?: unknown;
    account_id?: unknown;
  };
  const id = user.id ?? user.uuid ?? user.account_id;
  return id === undefined || id === null ? null : String(id);
}
