import type { Logger } from 'pino';
import type { AcpHost } from './acp/acp-host';
import type { AgentInstalls } from './acp/agent-installs';
import type { LlmFactory } from './agent/llm/llm-types';
import type { ConversationLimits } from './config';
import type { SecretMasker } from './events/secret-masker';
import type { ProviderApiBase } from './git/provider-api';
import type { ProviderTokenService } from './git/provider-tokens';
import type { CustomSecretService } from './secrets/custom-secrets';
import type { SecretStore } from './secrets/secret-store';
import type { SessionKey } from './secrets/session-key';
import type { SettingsService } from './settings/settings-service';
import type { DockerConnection } from './sandbox/docker/docker-status';
import type { SandboxService } from './sandbox/sandbox-service';
import type { SandboxSpecs } from './sandbox/sandbox-specs';
import type { Db } from './storage/database';

/** Everything routes and domain services need, built once by createService. */
export interface ServiceContext {
  version: string;
  dataDir: string;
  startedAt: Date;
  logger: Logger;
  db: Db;
  secrets: SecretStore;
  /** Masks every secret the service knows, as they are now (rebuilt when one changes). */
  masker: SecretMasker;
  sessionKey: SessionKey;
  settings: SettingsService;
  providerTokens: ProviderTokenService;
  customSecrets: CustomSecretService;
  providerApiBase: ProviderApiBase;
  /** `https`, or `http` where tests serve repositories from a plain git server on 127.0.0.1. */
  gitScheme: 'https' | 'http';
  docker: DockerConnection;
  /** The port the service listens on (known once listening). */
  port(): number;
  sandboxes: SandboxService;
  sandboxSpecs: SandboxSpecs;
  /** Makes the model client of each conversation's agent. */
  llmFactory: LlmFactory;
  limits: ConversationLimits;
  /** What coding agents over ACP need: their install and the model gateway's endpoint. */
  acp: AcpHost;
  /** The coding agents installed for ACP conversations (installed on first use). */
  agentInstalls: AgentInstalls;
}
