import { MASKED_API_KEY, type MCPConfig } from '../../shared/api/mcp';
import type { Settings, SettingsUpdate } from '../../shared/api/settings';
import type { SecretStore } from '../secrets/secret-store';
import type { Db, Statement } from '../storage/database';
import type { ProviderTokenService } from '../git/provider-tokens';

/** Settings fields whose stored value is kept when a POST sends null or omits them. */
const KEEP_IF_ABSENT = ['llm_model', 'llm_base_url', 'user_consents_to_analytics'] as const;
/** Settings that are secrets: kept in the secret store under the same account name. */
const SECRET_FIELDS = ['llm_api_key', 'search_api_key', 'sandbox_api_key'] as const;
type SecretField = (typeof SECRET_FIELDS)[number];

/** What SQLite holds: every setting except secrets (MCP `api_key`s removed too). */
export type StoredSettings = Omit<SettingsUpdate, SecretField>;

export const DEFAULTS = {
  max_iterations: 500,
  git_user_name: 'dockhand',
  git_user_email: 'dockhand@localhost',
  condenser_max_size: 120,
  max_concurrent_conversations: 3,
  max_live_sandboxes: 5,
  sandbox_warm_pool: 1,
} as const;

/** The git identity the agent commits with, which the settings show: the saved one, else Dockhand's. */
export function gitIdentity(stored: StoredSettings | null): { name: string; email: string } {
  return {
    name: stored?.git_user_name || DEFAULTS.git_user_name,
    email: stored?.git_user_email || DEFAULTS.git_user_email,
  };
}

function mcpSecretAccount(url: string): string {
  return `mcp:${url}`;
}

/** The URLs of the servers that can hold an `api_key`. */
function serverUrls(config: MCPConfig | null | undefined): string[] {
  return config ? [...config.sse_servers, ...config.shttp_servers].map((server) => server.url) : [];
}

/** Loads and stores the one local user's settings, with secrets in the secret store. */
export class SettingsService {
  private readonly selectSettings: Statement;
  /** The parsed row, read once and dropped on every write (this service is its only writer). */
  private cached: StoredSettings | null | undefined;

  constructor(
    private readonly db: Db,
    private readonly secrets: SecretStore,
    private readonly providerTokens: ProviderTokenService,
  ) {
    this.selectSettings = db.prepare('SELECT data FROM settings WHERE id = 1');
  }

  /** The stored settings (shared: read, never modify), or null when never saved. */
  stored(): StoredSettings | null {
    if (this.cached === undefined) {
      const row = this.selectSettings.get() as { data: string } | undefined;
      this.cached = row ? (JSON.parse(row.data) as StoredSettings) : null;
    }
    return this.cached;
  }

  /** The settings as GET /api/settings shows them, or null when never saved. */
  async view(): Promise<Settings | null> {
    const s = this.stored();
    if (!s) return null;
    const has = async (account: string) => Boolean(await this.secrets.get(account));
    return {
      llm_api_key_set: await has('llm_api_key'),
      language: s.language ?? null,
      agent: s.agent ?? null,
      max_iterations: s.max_iterations ?? null,
      security_analyzer: s.security_analyzer ?? null,
      confirmation_mode: s.confirmation_mode ?? null,
      llm_model: s.llm_model ?? null,
      llm_api_key: null,
      llm_base_url: s.llm_base_url ?? null,
      remote_runtime_resource_factor: s.remote_runtime_resource_factor ?? null,
      secrets_store: { provider_tokens: {}, custom_secrets: {} },
      enable_default_condenser: s.enable_default_condenser ?? true,
      enable_sound_notifications: s.enable_sound_notifications ?? false,
      enable_proactive_conversation_starters: s.enable_proactive_conversation_starters ?? true,
      enable_solvability_analysis: s.enable_solvability_analysis ?? true,
      user_consents_to_analytics: s.user_consents_to_analytics ?? null,
      sandbox_base_container_image: s.sandbox_base_container_image ?? null,
      sandbox_runtime_container_image: s.sandbox_runtime_container_image ?? null,
      mcp_config: s.mcp_config ? await this.maskMcp(s.mcp_config) : null,
      search_api_key: null,
      sandbox_api_key: null,
      max_budget_per_task: s.max_budget_per_task ?? null,
      email: s.email ?? null,
      email_verified: s.email_verified ?? null,
      git_user_name: gitIdentity(s).name,
      git_user_email: gitIdentity(s).email,
      provider_tokens_set: this.providerTokens.hostsByProvider(),
      search_api_key_set: await has('search_api_key'),
      sandbox_api_key_set: await has('sandbox_api_key'),
      condenser_max_size: s.condenser_max_size ?? null,
      v1_enabled: s.v1_enabled ?? null,
      sandbox_provider: s.sandbox_provider ?? 'docker',
      max_concurrent_conversations: s.max_concurrent_conversations ?? DEFAULTS.max_concurrent_conversations,
      max_live_sandboxes: s.max_live_sandboxes ?? DEFAULTS.max_live_sandboxes,
      sandbox_warm_pool: s.sandbox_warm_pool ?? DEFAULTS.sandbox_warm_pool,
    };
  }

  /**
   * Replaces the settings with `update`, except the fields kept when null or omitted.
   * Secrets go to the secret store first, so a keychain failure leaves the stored settings unchanged.
   */
  async save(update: SettingsUpdate): Promise<void> {
    const previous = this.stored() ?? {};
    for (const field of SECRET_FIELDS) {
      const value = update[field];
      if (value === '') await this.secrets.delete(field);
      else if (typeof value === 'string') await this.secrets.set(field, value);
    }
    const next: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(update)) {
      if (!(SECRET_FIELDS as readonly string[]).includes(key)) next[key] = value;
    }
    for (const field of KEEP_IF_ABSENT) {
      if (update[field] === null || update[field] === undefined) next[field] = previous[field] ?? null;
    }
    if (update.mcp_config) next.mcp_config = await this.storeMcpKeys(update.mcp_config);
    await this.forgetRemovedMcpKeys(previous.mcp_config, update.mcp_config);
    this.write(next as StoredSettings);
  }

  /** Replaces only the MCP servers (from POST /api/add-git-providers). */
  async saveMcpConfig(config: MCPConfig): Promise<void> {
    const stored = this.stored() ?? {};
    const mcpConfig = await this.storeMcpKeys(config);
    await this.forgetRemovedMcpKeys(stored.mcp_config, config);
    this.write({ ...stored, mcp_config: mcpConfig });
  }

  /** The MCP servers with their real `api_key`s, for connecting to them. */
  async mcpConfig(): Promise<MCPConfig | null> {
    const config = this.stored()?.mcp_config;
    if (!config) return null;
    const withKey = async <T extends { url: string }>(server: T) => ({
      ...server,
      api_key: await this.secrets.get(mcpSecretAccount(server.url)),
    });
    return {
      sse_servers: await Promise.all(config.sse_servers.map(withKey)),
      shttp_servers: await Promise.all(config.shttp_servers.map(withKey)),
      stdio_servers: config.stdio_servers,
    };
  }

  private write(settings: StoredSettings): void {
    this.db
      .prepare(
        `INSERT INTO settings (id, data, updated_at) VALUES (1, ?, ?)
         ON CONFLICT(id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at`,
      )
      .run(JSON.stringify(settings), new Date().toISOString());
    this.cached = undefined;
  }

  /** Moves MCP `api_key`s into the secret store; the masked placeholder keeps the stored key. */
  private async storeMcpKeys(config: MCPConfig): Promise<MCPConfig> {
    const strip = async <T extends { url: string; api_key?: string | null | undefined }>(server: T) => {
      const { api_key: apiKey, ...rest } = server;
      if (apiKey && apiKey !== MASKED_API_KEY) await this.secrets.set(mcpSecretAccount(server.url), apiKey);
      if (!apiKey) await this.forgetMcpKey(server.url);
      return rest as T;
    };
    return {
      sse_servers: await Promise.all(config.sse_servers.map(strip)),
      shttp_servers: await Promise.all(config.shttp_servers.map(strip)),
      stdio_servers: config.stdio_servers,
    };
  }

  /** Deletes the stored `api_key`s of servers that `previous` listed and `next` no longer does. */
  private async forgetRemovedMcpKeys(
    previous: MCPConfig | null | undefined,
    next: MCPConfig | null | undefined,
  ): Promise<void> {
    const kept = new Set(serverUrls(next));
    for (const url of serverUrls(previous)) if (!kept.has(url)) await this.forgetMcpKey(url);
  }

  /** Deletes a server's stored `api_key`; with the secret store down there is nothing to reach. */
  private async forgetMcpKey(url: string): Promise<void> {
    if (this.secrets.status.state === 'ok' && (await this.secrets.get(mcpSecretAccount(url)))) {
      await this.secrets.delete(mcpSecretAccount(url));
    }
  }

  private async maskMcp(config: MCPConfig) {
    const mask = async <T extends { url: string }>(server: T) => ({
      ...server,
      api_key: (await this.secrets.get(mcpSecretAccount(server.url))) ? MASKED_API_KEY : null,
    });
    return {
      sse_servers: await Promise.all(config.sse_servers.map(mask)),
      shttp_servers: await Promise.all(config.shttp_servers.map(mask)),
      stdio_servers: config.stdio_servers,
    };
  }
}
