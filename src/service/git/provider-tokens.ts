import type { AddGitProvidersRequest } from '../../shared/api/git-providers';
import { GIT_PROVIDERS, type GitProvider } from '../../shared/api/settings';
import { ValidationFailed } from '../http/validation';
import type { SecretStore } from '../secrets/secret-store';
import type { Db, Statement } from '../storage/database';
import { HttpError } from '../http/errors';
import { DEFAULT_HOSTS, ProviderUnreachable, type ProviderApiBase, verifyToken } from './provider-api';

/** Unverified tokens are checked again at most this often. */
const RECHECK_MS = 60_000;

export interface StoredProvider {
  provider: GitProvider;
  /** The configured host, or null for the provider's public host. */
  host: string | null;
  user_id: string | null;
  /** 0 while the token waits to be checked: it was saved when the provider could not be reached. */
  verified: number;
}

export function tokenAccount(provider: GitProvider): string {
  return `provider:${provider}`;
}

/** Git-provider tokens: tokens in the secret store, hosts and user ids in SQLite. */
export class ProviderTokenService {
  private readonly selectProviders: Statement;
  /** The rows, read once and dropped on every write (this service is their only writer). */
  private cached: StoredProvider[] | undefined;
  private lastRecheck = 0;
  private rechecking: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly secrets: SecretStore,
    private readonly apiBase: ProviderApiBase,
  ) {
    this.selectProviders = db.prepare(
      'SELECT provider, host, user_id, verified FROM provider_tokens ORDER BY provider',
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

  /** The providers whose token was saved unverified (the provider could not be reached then). */
  unverified(): GitProvider[] {
    return this.list()
      .filter((p) => !p.verified)
      .map((p) => p.provider);
  }

  /**
   * Checks the tokens saved unverified, now that their provider may answer: a token it accepts becomes
   * verified (with its user id), one it rejects is removed, and an unreachable provider is tried again later.
   * Runs at most once per `RECHECK_MS`; the caller does not wait for it.
   */
  recheckUnverified(now = Date.now()): Promise<void> {
    if (this.unverified().length === 0 || now - this.lastRecheck < RECHECK_MS) return Promise.resolve();
    this.lastRecheck = now;
    this.rechecking ??= this.recheck().finally(() => (this.rechecking = null));
    return this.rechecking;
  }

  private async recheck(): Promise<void> {
    for (const stored of this.list().filter((p) => !p.verified && p.provider !== 'enterprise_sso')) {
      const provider = stored.provider as Exclude<GitProvider, 'enterprise_sso'>;
      const token = await this.secrets.get(tokenAccount(provider));
      if (!token) continue;
      try {
        const userId = await verifyToken(
          this.apiBase,
          provider,
          stored.host ?? DEFAULT_HOSTS[provider],
          token,
        );
        this.db
          .prepare(
            'UPDATE provider_tokens SET verified = 1, user_id = COALESCE(?, user_id) WHERE provider = ?',
          )
          .run(userId, provider);
      } catch (error) {
        if (error instanceof ProviderUnreachable || !(error instanceof HttpError && error.status === 401))
          continue;
        await this.secrets.delete(tokenAccount(provider));
        this.db.prepare('DELETE FROM provider_tokens WHERE provider = ?').run(provider);
      }
      this.cached = undefined;
    }
  }

  /** The token and effective host of a provider, or null when none is stored. */
  async token(provider: GitProvider): Promise<{ token: string; host: string } | null> {
    void this.recheckUnverified().catch(() => undefined);
    const stored = this.list().find((p) => p.provider === provider);
    const token = stored ? await this.secrets.get(tokenAccount(provider)) : null;
    if (!stored || !token) return null;
    return { token, host: stored.host ?? DEFAULT_HOSTS[provider as Exclude<GitProvider, 'enterprise_sso'>] };
  }

  /**
   * Verifies every non-empty token with its provider, then replaces the stored set: providers not sent
   * are removed. An empty token keeps the stored one (re-checked against the new host). A provider that
   * cannot be reached at all does not stop the save: its token is stored unverified (and checked when it is
   * next reachable); a token the provider rejects is refused (401). Returns the providers saved unverified.
   */
  async replace(request: AddGitProvidersRequest['provider_tokens']): Promise<GitProvider[]> {
    const entries = Object.entries(request) as [GitProvider, NonNullable<(typeof request)[GitProvider]>][];
    const resolved: {
      provider: GitProvider;
      token: string;
      host: string | null;
      user_id: string | null;
      verified: boolean;
    }[] = [];
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
      if (provider === 'enterprise_sso') {
        resolved.push({ provider, token, host, user_id: sent.user_id ?? null, verified: true });
        continue;
      }
      try {
        const userId = await verifyToken(this.apiBase, provider, host ?? DEFAULT_HOSTS[provider], token);
        resolved.push({ provider, token, host, user_id: userId ?? sent.user_id ?? null, verified: true });
      } catch (error) {
        if (!(error instanceof ProviderUnreachable)) throw error;
        resolved.push({ provider, token, host, user_id: sent.user_id ?? null, verified: false });
      }
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
        'INSERT INTO provider_tokens (provider, host, user_id, updated_at, verified) VALUES (?, ?, ?, ?, ?)',
      );
      for (const r of resolved) insert.run(r.provider, r.host, r.user_id, now, r.verified ? 1 : 0);
    })();
    this.cached = undefined;
    this.lastRecheck = Date.now();
    return resolved.filter((r) => !r.verified).map((r) => r.provider);
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
