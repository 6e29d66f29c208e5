import { GIT_PROVIDERS, type GitProvider } from '../../shared/api/settings';
import { HttpError, httpError } from '../http/errors';
import { authorization, DEFAULT_HOSTS, type ProviderApiBase, providerFetch } from './provider-api';

export interface ProviderToken {
  token: string;
  host: string;
}

export interface RepositoryAccessRequest {
  /** `owner/repo` (GitLab: `group/sub/repo`). */
  repository: string;
  /** Only this provider is checked; else each in order, and the first that answers sets the provider. */
  gitProvider?: GitProvider | null;
  /** The stored token and host of a provider, or null when none is stored. */
  tokens: (provider: GitProvider) => Promise<ProviderToken | null>;
  apiBase: ProviderApiBase;
}

export interface RepositoryAccess {
  provider: GitProvider;
  host: string;
}

/** The REST URL that answers 200 when the repository is visible with the presented credentials. */
function repositoryUrl(
  apiBase: ProviderApiBase,
  provider: GitProvider,
  host: string,
  repository: string,
): string {
  const segments = repository.split('/').map(encodeURIComponent);
  switch (provider) {
    case 'github':
    case 'enterprise_sso': // GitHub Enterprise behind single sign-on
      return `${apiBase('github', host)}/repos/${segments.join('/')}`;
    case 'gitlab':
      return `${apiBase('gitlab', host)}/projects/${encodeURIComponent(repository)}`;
    case 'bitbucket':
      return `${apiBase('bitbucket', host)}/repositories/${segments.join('/')}`;
  }
}

/** How to ask a provider: with its stored token on its host, else anonymously on its public host. */
async function credentialsFor(
  request: RepositoryAccessRequest,
  provider: GitProvider,
): Promise<{ host: string; token: string | null } | null> {
  const stored = await request.tokens(provider);
  if (stored) return stored;
  return provider === 'enterprise_sso' ? null : { host: DEFAULT_HOSTS[provider], token: null };
}

/**
 * Checks that a repository is visible: with the stored token of `gitProvider`, else with each provider in the
 * order github, gitlab, bitbucket, enterprise_sso (anonymously on the public hosts where no token is stored).
 * Returns the first provider that sees it and its host. None -> 401 "Unable to access repo <repo>"; when a
 * provider could not be asked -> 502 "Could not reach <host>: <reason>" (the first such one).
 */
export async function checkRepositoryAccess(request: RepositoryAccessRequest): Promise<RepositoryAccess> {
  const { repository, apiBase } = request;
  const candidates = request.gitProvider ? [request.gitProvider] : GIT_PROVIDERS;
  let unreachable: HttpError | null = null;
  for (const provider of candidates) {
    const credentials = await credentialsFor(request, provider);
    if (!credentials) continue;
    const { host, token } = credentials;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (token) headers.Authorization = authorization(provider, token);
    let response: Response;
    try {
      response = await providerFetch(repositoryUrl(apiBase, provider, host, repository), { headers }, host);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      unreachable ??= error;
      continue;
    }
    await response.body?.cancel();
    if (response.ok) return { provider, host };
    if (response.status >= 500) {
      unreachable ??= httpError(
        502,
        `Could not reach ${host}: ${response.status} ${response.statusText}`.trim(),
      );
    }
  }
  throw unreachable ?? httpError(401, `Unable to access repo ${repository}`);
}
