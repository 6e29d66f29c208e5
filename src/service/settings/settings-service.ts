import { MASKED_API_KEY, type MCPConfig } from '../../shared/api/mcp';
import {
  forgetMcpSecrets,
  holdsPlainSecrets,
  maskedMcpConfig,
  storeMcpSecrets,
  withMcpSecrets,
} from '../mcp/mcp-secrets';
import type { Settings, SettingsUpdate } from '../../shared/api/settings';
import { ModelProbes } from '../agent/llm/model-probes';
import { DEFAULT_MAX_ITERATIONS } from '../agent/step-budget';
import type { SecretStore } from '../secrets/secret-store';
import type { Db, Statement } from '../storage/database';
import type { ProviderTokenService } from '../git/provider-tokens';

/** Settings fields whose stored value is kept when a POST sends null or omits them. */
const KEEP_IF_ABSENT = [
  'llm_model',
  'llm_base_url',
  'user_consents_to_analytics',
  // Dockhand's own network settings: a client that does not know them leaves them as they are.
  'sandbox_network',
  'egress_policy',
  'egress_allow',
  'egress_deny',
] as const;
/** Settings that are secrets: kept in the secret store under the same account name. */
const SECRET_FIELDS = ['llm_api_key', 'search_api_key', 'sandbox_api_key'] as const;
type SecretField = (typeof SECRET_FIELDS)[number];

/** What SQLite holds: every setting except secrets (MCP `api_key`s removed, stdio `env` values masked). */
export type StoredSettings = Omit<SettingsUpdate, SecretField>;

/** The LLM endpoint the settings name, with its stored key. */
export interface SavedLlm {
  model: string | null;
  baseUrl: string | null;
  apiKey: string | null;
}

export const DEFAULTS = {
  max_iterations: DEFAULT_MAX_ITERATIONS,
  git_user_name: 'dockhand',
  git_user_email: 'dockhand@localhost',
  condenser_max_size: 120,
  max_concurrent_conversations: 3,
  max_live_sandboxes: 5,
  sandbox_warm_pool: 1,
  default_agent: 'dockhand',
  sandbox_network: 'gated',
  egress_policy: 'balanced',
} as const;

/** The git identity the agent commits with, which the settings show: the saved one, else Dockhand's. */
export function gitIdentity(stored: StoredSettings | null): { name: string; email: string } {
  return {
    name: stored?.git_user_name || DEFAULTS.git_user_name,
    email: stored?.git_user_email || DEFAULTS.git_user_email,
  };
}

/** The secret-store accounts of the settings' MCP secrets start with this. */
const MCP_PREFIX = 'mcp:';

/** Loads and stores the one local user's settings, with secrets in the secret store. */
export class SettingsService {
  private readonly selectSettings: Statement;
  /** The parsed row, read once and dropped on every write (this service is its only writer). */
  private cached: StoredSettings | null | undefined;
  /** What was probed about each model: its server's facts and its tool mode. */
  readonly modelProbes = new ModelProbes();

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

  /** Providers whose token waits to be verified; shown, they are checked again in the background. */
  private unverifiedTokens() {
    void this.providerTokens.recheckUnverified().catch(() => undefined);
    return this.providerTokens.unverified();
  }

  /** The saved model, base URL and LLM key: the key belongs to that endpoint and is sent nowhere else. */
  async savedLlm(): Promise<SavedLlm> {
    const s = this.stored();
    return {
      model: s?.llm_model ?? null,
      baseUrl: s?.llm_base_url ?? null,
      apiKey: (await this.secrets.get('llm_api_key')) || null,
    };
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
      mcp_config: s.mcp_config ? await maskedMcpConfig(this.secrets, MCP_PREFIX, s.mcp_config) : null,
      search_api_key: null,
      sandbox_api_key: null,
      max_budget_per_task: s.max_budget_per_task ?? null,
      email: s.email ?? null,
      email_verified: s.email_verified ?? null,
      git_user_name: gitIdentity(s).name,
      git_user_email: gitIdentity(s).email,
      provider_tokens_set: this.providerTokens.hostsByProvider(),
      provider_tokens_unverified: this.unverifiedTokens(),
      search_api_key_set: await has('search_api_key'),
      sandbox_api_key_set: await has('sandbox_api_key'),
      condenser_max_size: s.condenser_max_size ?? null,
      v1_enabled: s.v1_enabled ?? null,
      sandbox_provider: s.sandbox_provider ?? 'docker',
      max_concurrent_conversations: s.max_concurrent_conversations ?? DEFAULTS.max_concurrent_conversations,
      max_live_sandboxes: s.max_live_sandboxes ?? DEFAULTS.max_live_sandboxes,
      sandbox_warm_pool: s.sandbox_warm_pool ?? DEFAULTS.sandbox_warm_pool,
      default_agent: s.default_agent ?? DEFAULTS.default_agent,
      sandbox_network: s.sandbox_network ?? DEFAULTS.sandbox_network,
      egress_policy: s.egress_policy ?? DEFAULTS.egress_policy,
      egress_allow: s.egress_allow ?? [],
      egress_deny: s.egress_deny ?? [],
    };
  }

  /** Adds one entry to the user's egress allow list ("Always allow"), once. */
  allowEgress(entry: string): void {
    const stored = this.stored() ?? {};
    const allow = stored.egress_allow ?? [];
    if (!allow.includes(entry)) this.write({ ...stored, egress_allow: [...allow, entry] });
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
    if (update.mcp_config)
      next.mcp_config = await storeMcpSecrets(
        this.secrets,
        MCP_PREFIX,
        update.mcp_config,
        previous.mcp_config,
      );
    else await forgetMcpSecrets(this.secrets, MCP_PREFIX, previous.mcp_config);
    this.write(next as StoredSettings);
  }

  /** Replaces only the MCP servers (from POST /api/add-git-providers). */
  async saveMcpConfig(config: MCPConfig): Promise<void> {
    const stored = this.stored() ?? {};
    const mcpConfig = await storeMcpSecrets(this.secrets, MCP_PREFIX, config, stored.mcp_config);
    this.write({ ...stored, mcp_config: mcpConfig });
  }

  /**
   * At start: MCP secrets that an older version kept in SQLite (stdio `env` values, `api_key`s) move into the
   * secret store and the row is rewritten without them. False when there was nothing to move.
   */
  async migrateMcpSecrets(): Promise<boolean> {
    const stored = this.stored();
    if (!stored?.mcp_config || !holdsPlainSecrets(stored.mcp_config)) return false;
    const config = stored.mcp_config;
    // A server without a key in the row may have one in the store already: the placeholder keeps it.
    const keep = <T extends { url: string }>(server: T) => ({
      ...server,
      api_key:
        ('api_key' in server && typeof server.api_key === 'string' && server.api_key) || MASKED_API_KEY,
    });
    // The row is its own previous config: values it already masks stay with their unchanged servers.
    const mcpConfig = await storeMcpSecrets(
      this.secrets,
      MCP_PREFIX,
      { ...config, sse_servers: config.sse_servers.map(keep), shttp_servers: config.shttp_servers.map(keep) },
      config,
    );
    // The old row's bytes are overwritten, not left in a free page of the file.
    this.db.exec('PRAGMA secure_delete = ON');
    this.write({ ...stored, mcp_config: mcpConfig });
    return true;
  }

  /** The MCP servers with their real `api_key`s and `env` values, for connecting to them. */
  async mcpConfig(): Promise<MCPConfig | null> {
    const config = this.stored()?.mcp_config;
    return config ? withMcpSecrets(this.secrets, MCP_PREFIX, config) : null;
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
}
