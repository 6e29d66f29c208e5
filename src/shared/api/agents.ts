import { z } from 'zod';

/** The agents a conversation can run: Dockhand's own, or a coding agent driven over ACP inside the sandbox. */
export const AGENT_KINDS = ['dockhand', 'claude-code', 'codex', 'gemini', 'opencode'] as const;
export const AgentKind = z.enum(AGENT_KINDS);
export type AgentKind = z.infer<typeof AgentKind>;
export type AcpAgentKind = Exclude<AgentKind, 'dockhand'>;

export const AGENT_INSTALL_STATES = ['not_installed', 'installing', 'installed', 'failed'] as const;

/** Where an agent's install stands (the built-in agent is always `installed`). */
export const AgentInstall = z.object({
  state: z.enum(AGENT_INSTALL_STATES),
  /** What the install is doing now, e.g. `Downloading packages (41)`; null when idle. */
  progress: z.string().nullable(),
  /** Why the last install failed, with what to do; null unless `failed`. */
  error: z.string().nullable(),
  /** Bytes on disk once installed. */
  size_bytes: z.number().int().nullable(),
  /** Seconds the install took. */
  install_seconds: z.number().nullable(),
});
export type AgentInstall = z.infer<typeof AgentInstall>;

/** GET /api/agents: one entry per agent. */
export const AgentInfo = z.object({
  kind: AgentKind,
  label: z.string(),
  /** The npm package and its pinned version; null for the built-in agent. */
  package: z.string().nullable(),
  version: z.string().nullable(),
  /** The model API the agent speaks, which the model gateway serves from the configured model. */
  wire_api: z.enum(['dockhand', 'anthropic', 'openai-responses', 'gemini', 'openai-chat']),
  /** What the agent needs, in a sentence for the Settings page and the Home page. */
  needs: z.string(),
  install: AgentInstall,
});
export type AgentInfo = z.infer<typeof AgentInfo>;

export const AgentList = z.object({ default_agent: AgentKind, agents: z.array(AgentInfo) });
export type AgentList = z.infer<typeof AgentList>;

export const AgentPath = z.object({ kind: AgentKind });
