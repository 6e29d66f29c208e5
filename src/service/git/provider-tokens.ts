import type { AddGitProvidersRequest } from '../../shared/api/git-providers';
import { GIT_PROVIDERS, type GitProvider } from '../../shared/api/settings';
import { ValidationFailed } from '../http/validation';
import type { SecretStore } from '../secrets/secret-store';
import type { Db, Statement } from '../storage/database';
import { DEFAULT_HOSTS, type ProviderApiBase, verifyToken } from './provider-api';

export interface StoredProvider {
  provider: GitProvider;
  /** The configured host, or null for the provider's public host. */
  host: string | null;
  user_id: string | null;
}

export function tokenAccount(provider: GitProvider): string {
  return `provider:${provider}`;
}

/** Git-provider tokens: tokens in the secret store, hosts and user ids in SQLite. */
export class ProviderTokenService {
  private readonly selectProviders: Statement;
  /** The rows, read once and dropped on every write (this service is their only writer). */
  private cached: StoredProvider[] | undefined;

  constructor(
    private readonly db: Db,
    private readonly secrets: SecretStore,
    private readonly apiBase: ProviderApiBase,
  ) {
    this.selectProviders = db.prepare(
      'SELECT provider, host, user_id FROM provider_tokens ORDER BY provider',
    );
  }

  /** The stored providers (shared: read, never modify). */
  list(): StoredProvider[] {
    this.cached ??= this.selectProviders.all() as StoredProvider[];
    return this.cached;
  }

  /** `{provider: host|null}` for every provider with a stored token. */
  hostsByProvider(): Record<string, string | null> {
    return Object.fromEntries(this.list().map((p) => [p.provider, p.host]));
  }

  /** The token and effective host of a provider, or null when none is stored. */
  async token(provider: GitProvider): Promise<{ token: string; host: string } | null> {
    const stored = this.list().find((p) => p.provider === provider);
    const token = stored ? await this.secrets.get(tokenAccount(provider)) : null;
    if (!stored || !token) return null;
    return { token, host: stored.host ?? DEFAULT_HOSTS[provider as Exclude<GitProvider, 'enterprise_sso'>] };
  }

  /**
   * Verifies every non-empty token with its provider, then replaces the stored set: providers not sent
   * are removed. An empty token keeps the stored one (re-checked against the new host).
   */
  async replace(request: AddGitProvidersRequest['provider_tokens']): Promise<void> {
    const entries = Object.entries(request) as [GitProvider, NonNullable<(typeof request)[GitProvider]>][];
    const resolved: { provider: GitProvider; token: string; host: string | null; user_id: string | null }[] =
      [];
    for (const [provider, sent] of entries) {
      const host = sent.host ?? null;
      if (provider === 'enterprise_sso' && !host) {
        throw new ValidationFailed([
          {
            type: 'value_error',
            loc: ['body', 'provider_tokens', provider, 'host'],
            msg: 'Value error, host is required for enterprise_sso',
            input: null,
          },
        ]);
      }
      const token = sent.token || (await this.secrets.get(tokenAccount(provider)));
      if (!token) continue;
      const userId =
        provider === 'enterprise_sso'
          ? (sent.user_id ?? null)
          : ((await verifyToken(this.apiBase, provider, host ?? DEFAULT_HOSTS[provider], token)) ??
            sent.user_id ??
            null);
      resolved.push({ provider, token, host, user_id: userId });
    }
    for (const entry of resolved) await this.secrets.set(tokenAccount(entry.provider), entry.token);
    const kept = new Set(resolved.map((r) => r.provider));
    for (const provider of GIT_PROVIDERS) {
      if (!kept.has(provider) && (await this.secrets.get(tokenAccount(provider)))) {
        await this.secrets.delete(tokenAccount(provider));
      }
    }
    const now = new Date().toISOString();
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM provider_tokens').run();
      const insert = this.db.prepare(
        'INSERT INTO provider_tokens (provider, host, user_id, updated_at) VALUES (?, ?, ?, ?)',
      );
      for (const r of resolved) insert.run(r.provider, r.host, r.user_id, now);
    })();
    this.cached = undefined;
  }

  /** Removes every provider token. */
  async clear(): Promise<void> {
    for (const provider of GIT_PROVIDERS) {
      if (await this.secrets.get(tokenAccount(provider))) await this.secrets.delete(tokenAccount(provider));
    }
    this.db.prepare('DELETE FROM provider_tokens').run();
    this.cached = undefined;
  }
}
