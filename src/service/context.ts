import type { Logger } from 'pino';
import type { AcpHost } from './acp/acp-host';
import type { AgentInstalls } from './acp/agent-installs';
import type { AgentStateStore } from './agent/agent-state-store';
import type { LlmFactory } from './agent/llm/llm-types';
import type { EditHistory } from './agent/tools/str-replace-editor/edit-history';
import type { ConversationLimits } from './config';
import type { SecretMasker } from './events/secret-masker';
import type { ProviderApiBase } from './git/provider-api';
import type { ProviderTokenService } from './git/provider-tokens';
import type { CustomSecretService } from './secrets/custom-secrets';
import type { SecretStore } from './secrets/secret-store';
import type { SessionKey } from './secrets/session-key';
import type { LocalRepositoryStore } from './local-repository/local-repository-store';
import type { SettingsService } from './settings/settings-service';
import type { ForwardTarget, SandboxLink } from './sandbox/link/sandbox-link';
import type { SandboxService } from './sandbox/sandbox-service';
import type { SandboxSpecs } from './sandbox/sandbox-specs';

/**
 * What the conversations and the routes share, built once by createService. It holds collaborators, never
 * the database or a Docker handle: each store is built on the database here, in the composition root.
 */
export interface ServiceContext {
  version: string;
  dataDir: string;
  logger: Logger;
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
  /** The port the service listens on (known once listening). */
  port(): number;
  sandboxes: SandboxService;
  /** A running sandbox's link; null without one (host and none networks, the process provider, not running). */
  sandboxLink(sandboxId: string): SandboxLink | null;
  /**
   * A port on a Docker sandbox's loopback that leads to `target` on the service's side (how the model gateway
   * is reached from a gated sandbox), kept across pauses and resumes until the sandbox is deleted.
   */
  forwardIntoSandbox(sandboxId: string, port: number, target: ForwardTarget): Promise<void>;
  sandboxSpecs: SandboxSpecs;
  /** Makes the model client of each conversation's agent. */
  llmFactory: LlmFactory;
  limits: ConversationLimits;
  /** What coding agents over ACP need: their install and the model gateway's endpoint. */
  acp: AcpHost;
  /** The coding agents installed for ACP conversations (installed on first use). */
  agentInstalls: AgentInstalls;
  /** Each conversation's saved agent state (what the loop needs to go on after a restart). */
  agentStates: AgentStateStore;
  /** The editor's undo history of one conversation. */
  editHistory(conversationId: string): EditHistory;
  /** The conversations' repositories of this machine: what each was copied from, and its baseline. */
  localRepositories: LocalRepositoryStore;
}
