import type { AcpHost } from './acp/acp-host';
import type { Logger } from 'pino';
import type { LlmFactory } from './agent/llm/llm-types';
import { llmTimingFromEnv, type LlmTiming } from './agent/llm/retry-policy';
import { conversationIdleSecondsFromEnv } from './conversations/idle-stop';
import { setupTimeoutFromEnv } from './conversations/setup-script';
import { defaultDataDir } from './data-dir';
import type { ProviderApiBase } from './git/provider-api';
import { extraOriginsFromEnvironment } from './http/security';
import { timeoutOverrideFromEnv } from './mcp/server-config';
import type { DockerConnection } from './sandbox/docker/docker-status';
import type { SandboxConfig } from './sandbox/sandbox-config';
import type { PersistentSecretBackend } from './secrets/open-secret-store';
import type { SecretStore } from './secrets/secret-store';

/** How long a conversation's parts may take; the environment's values unless createService's caller sets them. */
export interface ConversationLimits {
  /** DOCKHAND_CONVERSATION_IDLE_S: seconds a conversation may sit idle before it is stopped; 0 = never. */
  idleSeconds: number;
  /** DOCKHAND_SETUP_TIMEOUT_S: seconds `.openhands/setup.sh` may run. */
  setupTimeoutSeconds: number;
  /** DOCKHAND_LLM_*: timeouts and backoff of model calls, over the defaults. */
  llmTiming: Partial<LlmTiming>;
  /** DOCKHAND_MCP_CALL_TIMEOUT_S: the timeout of every MCP call, else null (each server's own). */
  mcpCallTimeoutSeconds: number | null;
}

/** What `createService` is given; every option the environment can set falls back to it when unset. */
export interface ServiceConfig {
  dataDir: string;
  /** Preferred port (default 3000; 0 = any free port). */
  port?: number;
  /** Fail instead of falling back when the port is taken (`--port`). */
  strictPort?: boolean;
  logger?: Logger;
  /** Level of the default logger (DOCKHAND_LOG_LEVEL, else info). */
  logLevel?: string;
  /** Default: the OS keychain, or the 0600 file when DOCKHAND_SECRETS=file. */
  secretStore?: SecretStore;
  /** Fixed session key (DOCKHAND_SESSION_API_KEY); not persisted. */
  sessionApiKey?: string;
  /** Requests per second per key (burst twice that; DOCKHAND_RATE_LIMIT, else 1000). */
  rateLimitPerSecond?: number;
  /** Page origins allowed besides the service's own and app://dockhand (default: DOCKHAND_ALLOWED_ORIGINS, else none). */
  allowedOrigins?: string[];
  /** Built renderer to serve at `/`. */
  rendererDir?: string;
  providerApiBase?: ProviderApiBase;
  /** Scheme of git remotes: `http` only for test git servers on 127.0.0.1. */
  gitScheme?: 'https' | 'http';
  /** Default: the engine DOCKER_HOST, the docker context or the platform's default socket names. */
  docker?: DockerConnection;
  /** Sandbox options; unset ones come from the environment (DOCKHAND_SANDBOX_*) and the defaults. */
  sandbox?: Partial<SandboxConfig>;
  limits?: Partial<ConversationLimits>;
  /** Makes the agents' model clients; default `createLlmClient`. */
  llmFactory?: LlmFactory;
  /** The coding agents' installs and model endpoints (tests give their own). */
  acp?: Partial<AcpHost>;
}

/** A ServiceConfig whose environment-backed options are all set. */
export interface ResolvedServiceConfig extends ServiceConfig {
  logLevel: string;
  secretsBackend: PersistentSecretBackend;
  rateLimitPerSecond: number;
  allowedOrigins: string[];
  limits: ConversationLimits;
  /**
   * A copy of the environment as it was when the service started, for the sandbox layer, which reads it whole:
   * DOCKHAND_SANDBOX_*, the engine address (DOCKER_HOST, DOCKER_CONTEXT...) and the host PATH, HOME and locale
   * of process sandboxes.
   */
  environment: NodeJS.ProcessEnv;
}

/** Where secrets live when no store is passed: DOCKHAND_SECRETS=file, else the OS keychain. */
function secretsBackend(env: NodeJS.ProcessEnv): PersistentSecretBackend {
  return env.DOCKHAND_SECRETS === 'file' ? 'file' : 'keychain';
}

/** DOCKHAND_RATE_LIMIT (requests per second per key), default 1000. */
function rateLimitFromEnvironment(env: NodeJS.ProcessEnv): number {
  const value = Number(env.DOCKHAND_RATE_LIMIT ?? 1000);
  if (!(value > 0)) {
    throw new Error(
      `DOCKHAND_RATE_LIMIT must be a positive number of requests per second, not "${env.DOCKHAND_RATE_LIMIT}"`,
    );
  }
  return value;
}

/** DOCKHAND_LOG_LEVEL, default info. */
export function logLevelFromEnvironment(env: NodeJS.ProcessEnv = process.env): string {
  return env.DOCKHAND_LOG_LEVEL ?? 'info';
}

/**
 * Fills every unset option from the environment, read here once at start so that the rest of the service
 * only sees typed values passed down. A malformed variable the caller's options make unused is not read.
 */
export function resolveServiceConfig(
  config: ServiceConfig,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedServiceConfig {
  const limits = config.limits ?? {};
  return {
    ...config,
    logLevel: config.logLevel ?? logLevelFromEnvironment(env),
    secretsBackend: secretsBackend(env),
    sessionApiKey: config.sessionApiKey ?? env.DOCKHAND_SESSION_API_KEY,
    rateLimitPerSecond: config.rateLimitPerSecond ?? rateLimitFromEnvironment(env),
    allowedOrigins: config.allowedOrigins ?? extraOriginsFromEnvironment(env),
    limits: {
      idleSeconds: limits.idleSeconds ?? conversationIdleSecondsFromEnv(env),
      setupTimeoutSeconds: limits.setupTimeoutSeconds ?? setupTimeoutFromEnv(env),
      llmTiming: limits.llmTiming ?? llmTimingFromEnv(env),
      mcpCallTimeoutSeconds:
        limits.mcpCallTimeoutSeconds === undefined
          ? timeoutOverrideFromEnv(env)
          : limits.mcpCallTimeoutSeconds,
    },
    environment: { ...env },
  };
}

/** What the `dockhand` commands read from the environment besides their flags. */
export interface CliEnvironment {
  /** DOCKHAND_DATA_DIR, else $XDG_DATA_HOME/dockhand, else ~/.local/share/dockhand. */
  dataDir: string;
  /** DOCKHAND_PORT, as written (checked with `--port`'s value). */
  port: string | undefined;
  secretsBackend: PersistentSecretBackend;
  sessionApiKey: string | undefined;
  /** A copy of the whole environment, for `dockhand doctor`'s Docker check (DOCKER_HOST, the docker context, PATH). */
  environment: NodeJS.ProcessEnv;
}

export function cliEnvironment(env: NodeJS.ProcessEnv = process.env): CliEnvironment {
  return {
    dataDir: defaultDataDir(env),
    port: env.DOCKHAND_PORT,
    secretsBackend: secretsBackend(env),
    sessionApiKey: env.DOCKHAND_SESSION_API_KEY,
    environment: { ...env },
  };
}

/** A copy of this process's environment, for the programs the service runs on this machine (host git). */
export function inheritedEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env };
}
