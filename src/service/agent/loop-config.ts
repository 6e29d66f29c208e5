import type { V0Event } from '../../shared/api/events';
import type { EventLog } from '../events/event-log';
import type { SecretMasker } from '../events/secret-masker';
import type { SavedAgentState } from './agent-state-store';
import type { ConfirmationSettings } from './confirmation-policy';
import type { LlmClient } from './llm/llm-types';
import type { SecretContext } from './security/rules-analyzer';
import type { ToolRegistry } from './tools/registry';
import type { ToolContext } from './tools/tool';

/** A status update for clients (not stored): `{status_update, type, id, message}`. */
export interface StatusUpdate {
  type: 'info' | 'error';
  id: string;
  message: string;
  retry_in_s?: number;
}

export interface Recall {
  content: string;
  extras: Record<string, unknown>;
}

export interface AgentLoopConfig extends ConfirmationSettings {
  systemPrompt: string;
  /** What is recalled with user messages: the workspace context with the first, triggered knowledge later. */
  recall: {
    workspace(firstMessage: string): Recall;
    knowledge(message: string, history: V0Event[]): Recall | null;
  };
  maxIterations: number;
  /** USD; null = no budget. */
  maxBudgetPerTask: number | null;
  version: string;
  /** `enable_default_condenser`: summarize with the LLM as well as cut the window on overflow. */
  condenserEnabled: boolean;
  condenserMaxSize: number | null;
  /** The model's context window in tokens. */
  contextWindow: number;
  /** The MCP tools' name map, recorded in the `system` event. */
  mcpTools?: Record<string, { server: string; tool: string }>;
}

export interface AgentLoopDeps {
  conversationId: string;
  events: EventLog;
  masker: SecretMasker;
  llm: LlmClient;
  tools: ToolRegistry;
  toolContext: ToolContext;
  secrets: SecretContext;
  config: AgentLoopConfig;
  /** Interrupts the running shell command (Stop). */
  interrupt(): Promise<unknown>;
  onStatus?(update: StatusUpdate): void;
  /** Keeps what a restarted service needs to go on (called on every state change and step). */
  saveState?(state: SavedAgentState): void;
}
