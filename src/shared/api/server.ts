import { z } from 'zod';

export const AliveBody = z.object({ status: z.literal('ok') });

/** Extension: the warm pool of paused containers new sandboxes of the default spec are claimed from. */
export const WarmPoolState = z.object({
  /** How many it keeps ready (the `sandbox_warm_pool` setting; 0 = off, or not Docker sandboxes). */
  size: z.number().int(),
  /** Paused containers ready to be claimed. */
  ready: z.number().int(),
  /** Containers being made now. */
  filling: z.number().int(),
  /** The image (default spec) they are made from; null when off. */
  spec: z.string().nullable(),
  /** Why the pool cannot fill now, e.g. the image is not present yet. */
  error: z.string().nullable(),
});
export type WarmPoolState = z.infer<typeof WarmPoolState>;

export const ServerInfo = z.object({
  uptime: z.number(),
  version: z.string(),
  docker: z.object({
    available: z.boolean(),
    endpoint: z.string(),
    error: z.string().nullable(),
    /** Extensions: the named cause and its fix (null when available), the engine's API version. */
    cause: z
      .enum([
        'not_installed',
        'not_running',
        'permission_denied',
        'engine_too_old',
        'misconfigured',
        'not_responding',
      ])
      .nullable(),
    fix: z.string().nullable(),
    api_version: z.string().nullable(),
  }),
  /** Where the session key lives: keychain, file (no usable keychain), memory (tests) or environment. */
  secret_storage: z.string(),
  /** The OS keychain's state, with the fix when it is not usable. */
  keychain: z.object({
    backend: z.enum(['keychain', 'file', 'memory']),
    state: z.enum(['ok', 'no_session_bus', 'no_secret_service', 'locked', 'unavailable']),
    message: z.string().nullable(),
    fix: z.string().nullable(),
  }),
  running_conversations: z.number().int(),
  live_sandboxes: z.number().int(),
  /** Extension: the sandbox provider in use; `warning` says plainly when commands run unsandboxed on the host. */
  sandbox: z.object({
    provider: z.enum(['docker', 'process']),
    isolated: z.boolean(),
    network: z.string().nullable(),
    warning: z.string().nullable(),
    warm_pool: WarmPoolState,
  }),
  data_dir: z.string(),
});
export type ServerInfo = z.infer<typeof ServerInfo>;

export const RotatedKey = z.object({ session_api_key: z.string() });

export const ConfigOptions = z.object({
  APP_MODE: z.literal('oss'),
  GITHUB_CLIENT_ID: z.string(),
  POSTHOG_CLIENT_KEY: z.string(),
  FEATURE_FLAGS: z.object({ ENABLE_BILLING: z.boolean(), HIDE_LLM_SETTINGS: z.boolean() }),
  DOCKHAND_VERSION: z.string(),
});

/** The body of `GET /health`. */
export const HealthBody = z.literal('OK');
