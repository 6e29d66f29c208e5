import { z } from 'zod';
import { boundedInt, laxBool, laxInt, laxNumber } from './fields';
import { AgentKind } from './agents';
import { MCPConfig } from './mcp';

export const GIT_PROVIDERS = ['github', 'gitlab', 'bitbucket', 'enterprise_sso'] as const;
export const GitProvider = z.enum(GIT_PROVIDERS);
export type GitProvider = z.infer<typeof GitProvider>;

export const AGENTS = ['CodeActAgent'] as const;
export const SECURITY_ANALYZERS = ['rules', 'llm'] as const;
export const SANDBOX_PROVIDERS = ['docker', 'process'] as const;

const httpUrlOrEmpty = z.string().regex(/^(|https?:\/\/\S+)$/, { error: 'URL must be http(s) or empty' });

/**
 * The editable settings. Every field may be null or omitted; the service fills defaults.
 * Unknown keys and the read-only ones a GET returns are ignored, so GET-edit-POST round-trips.
 */
export const SettingsUpdate = z.object({
  language: z.string().nullable().optional(),
  agent: z.enum(AGENTS).nullable().optional(),
  max_iterations: boundedInt(1, 10_000).nullable().optional(),
  security_analyzer: z
    .enum(['', ...SECURITY_ANALYZERS])
    .nullable()
    .optional(),
  confirmation_mode: laxBool().nullable().optional(),
  llm_model: z.string().nullable().optional(),
  llm_api_key: z.string().nullable().optional(),
  llm_base_url: httpUrlOrEmpty.nullable().optional(),
  remote_runtime_resource_factor: laxInt(z.number().int().min(1)).nullable().optional(),
  enable_default_condenser: laxBool().nullable().optional(),
  enable_sound_notifications: laxBool().nullable().optional(),
  enable_proactive_conversation_starters: laxBool().nullable().optional(),
  enable_solvability_analysis: laxBool().nullable().optional(),
  user_consents_to_analytics: laxBool().nullable().optional(),
  sandbox_base_container_image: z.string().nullable().optional(),
  sandbox_runtime_container_image: z.string().nullable().optional(),
  mcp_config: MCPConfig.nullable().optional(),
  search_api_key: z.string().nullable().optional(),
  sandbox_api_key: z.string().nullable().optional(),
  max_budget_per_task: laxNumber(z.number().gt(0)).nullable().optional(),
  email: z.string().nullable().optional(),
  email_verified: laxBool().nullable().optional(),
  git_user_name: z.string().nullable().optional(),
  git_user_email: z.string().nullable().optional(),
  condenser_max_size: laxInt(z.number().int().min(20)).nullable().optional(),
  v1_enabled: laxBool().nullable().optional(),
  sandbox_provider: z.enum(SANDBOX_PROVIDERS).nullable().optional(),
  max_concurrent_conversations: boundedInt(1, 20).nullable().optional(),
  max_live_sandboxes: boundedInt(1, 20).nullable().optional(),
  /** Paused containers of the default sandbox spec kept ready for new conversations; 0 = off. */
  sandbox_warm_pool: boundedInt(0, 5).nullable().optional(),
  /** Dockhand: the agent new conversations run unless their start request names one. */
  default_agent: AgentKind.nullable().optional(),
});
export type SettingsUpdate = z.infer<typeof SettingsUpdate>;

const McpServerView = z.object({ url: z.string(), api_key: z.string().nullable().optional() });
export const MCPConfigView = z.object({
  sse_servers: z.array(McpServerView),
  stdio_servers: z.array(
    z.object({
      name: z.string(),
      command: z.string(),
      args: z.array(z.string()),
      env: z.record(z.string(), z.string()),
    }),
  ),
  shttp_servers: z.array(McpServerView.extend({ timeout: z.number() })),
});

/** GET /api/settings: the stored settings with defaults applied and secrets replaced by `*_set` flags. */
export const Settings = z.object({
  llm_api_key_set: z.boolean(),
  language: z.string().nullable(),
  agent: z.string().nullable(),
  max_iterations: z.number().int().nullable(),
  security_analyzer: z.string().nullable(),
  confirmation_mode: z.boolean().nullable(),
  llm_model: z.string().nullable(),
  llm_api_key: z.null(),
  llm_base_url: z.string().nullable(),
  remote_runtime_resource_factor: z.number().int().nullable(),
  secrets_store: z.object({
    provider_tokens: z.record(z.string(), z.unknown()),
    custom_secrets: z.record(z.string(), z.unknown()),
  }),
  enable_default_condenser: z.boolean(),
  enable_sound_notifications: z.boolean(),
  enable_proactive_conversation_starters: z.boolean(),
  enable_solvability_analysis: z.boolean(),
  user_consents_to_analytics: z.boolean().nullable(),
  sandbox_base_container_image: z.string().nullable(),
  sandbox_runtime_container_image: z.string().nullable(),
  mcp_config: MCPConfigView.nullable(),
  search_api_key: z.null(),
  sandbox_api_key: z.null(),
  max_budget_per_task: z.number().nullable(),
  email: z.string().nullable(),
  email_verified: z.boolean().nullable(),
  git_user_name: z.string().nullable(),
  git_user_email: z.string().nullable(),
  provider_tokens_set: z.record(z.string(), z.string().nullable()),
  /** Dockhand extension: providers whose token was saved while unreachable, not verified yet. */
  provider_tokens_unverified: z.array(z.enum(GIT_PROVIDERS)),
  search_api_key_set: z.boolean(),
  sandbox_api_key_set: z.boolean(),
  condenser_max_size: z.number().int().nullable(),
  v1_enabled: z.boolean().nullable(),
  sandbox_provider: z.enum(SANDBOX_PROVIDERS),
  max_concurrent_conversations: z.number().int(),
  max_live_sandboxes: z.number().int(),
  sandbox_warm_pool: z.number().int(),
  default_agent: AgentKind,
});
export type Settings = z.infer<typeof Settings>;
