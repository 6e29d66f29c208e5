import type { Repository } from '../../../shared/api/git';
import { isRepositoryName } from '../../../shared/api/repository-name';
import { GIT_PROVIDERS, type GitProvider } from '../../../shared/api/settings';
import { httpError } from '../../http/errors';
import type { ProviderApiBase } from '../provider-api';
import type { ProviderTokenService } from '../provider-tokens';
import { BitbucketClient } from './bitbucket';
import type { GitProviderClient } from './git-provider-client';
import { GitHubClient } from './github';
import { GitLabClient } from './gitlab';
import { type ApiProvider, ProviderHttp, TOKEN_REQUIRED } from './provider-http';

/** The client of a provider's REST API on `host`, authenticated with `token`. */
export function createProviderClient(
  provider: ApiProvider,
  host: string,
  token: string,
  apiBase: ProviderApiBase,
): GitProviderClient {
  const http = new ProviderHttp(provider, host, apiBase(provider, host), token);
  switch (provider) {
    case 'github':
      return new GitHubClient(http);
    case 'gitlab':
      return new GitLabClient(http);
    case 'bitbucket':
      return new BitbucketClient(http);
  }
}

function unsupported() {
  return httpError(400, 'Provider enterprise_sso does not support this operation');
}

export interface RepositoryOnProvider {
  client: GitProviderClient;
  repository: Repository;
}

/** Provider clients for the stored tokens, in the order github, gitlab, bitbucket. */
export class ProviderClients {
  constructor(
    private readonly tokens: ProviderTokenService,
    private readonly apiBase: ProviderApiBase,
  ) {}

  /** One provider's client: 400 for enterprise_sso, 401 without a stored token. */
  async client(provider: GitProvider): Promise<GitProviderClient> {
    if (provider === 'enterprise_sso') throw unsupported();
    const stored = await this.tokens.token(provider);
    if (!stored) throw httpError(401, TOKEN_REQUIRED);
    return createProviderClient(provider, stored.host, stored.token, this.apiBase);
  }

  /** Every provider with a stored token: 401 when there is none, 400 when only enterprise_sso has one. */
  async connected(): Promise<GitProviderClient[]> {
    const stored = new Set(this.tokens.list().map((entry) => entry.provider));
    const clients: GitProviderClient[] = [];
    for (const provider of GIT_PROVIDERS) {
      if (provider === 'enterprise_sso' || !stored.has(provider)) continue;
      const credentials = await this.tokens.token(provider);
      if (credentials)
        clients.push(createProviderClient(provider, credentials.host, credentials.token, this.apiBase));
    }
    if (clients.length > 0) return clients;
    throw stored.has('enterprise_sso') ? unsupported() : httpError(401, TOKEN_REQUIRED);
  }

  /** The selected provider's client, else every connected one. */
  async candidates(selected: GitProvider | undefined): Promise<GitProviderClient[]> {
    return selected ? [await this.client(selected)] : this.connected();
  }

  /** The first connected provider's client. */
  async primary(): Promise<GitProviderClient> {
    const [first] = await this.connected();
    if (!first) throw httpError(401, TOKEN_REQUIRED);
    return first;
  }

  /** The first candidate provider that shows the repository; 404 when none does (or the name is malformed). */
  async forRepository(fullName: string, selected?: GitProvider): Promise<RepositoryOnProvider> {
    const candidates = await this.candidates(selected);
    for (const client of isRepositoryName(fullName) ? candidates : []) {
      const repository = await client.repository(fullName);
      if (repository) return { client, repository };
    }
    throw httpError(404, `Repository ${fullName} not found`);
  }
}
