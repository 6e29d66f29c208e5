import type { AcpAgentKind } from '../../shared/api/agents';

/** The addresses and placeholder token an agent in a sandbox sends its model calls with (the model gateway's). */
export interface ModelEndpoint {
  /** The placeholder key: never the real one, which the gateway adds on its side. */
  token: string;
  /** Anthropic Messages (`ANTHROPIC_BASE_URL`; the client appends `/v1/messages`). */
  anthropicBaseUrl: string;
  /** OpenAI's base URL with `/v1` (clients append `/chat/completions` or `/responses`). */
  openaiBaseUrl: string;
  /** Gemini (`GOOGLE_GEMINI_BASE_URL`; the client appends `/v1beta/models/...`). */
  geminiBaseUrl: string;
}

/**
 * What running a coding agent over ACP needs from the rest of the service: the agent installed on this
 * machine, and the model gateway's endpoint of a conversation. `createService` builds it.
 */
export interface AcpHost {
  /** The agent's install folder on this machine, installed first when it is not (its progress as notes). */
  install(kind: AcpAgentKind, onProgress: (message: string) => void): Promise<string>;
  /** The conversation's model endpoint, as the sandbox reaches it. */
  modelEndpoint(conversationId: string): Promise<ModelEndpoint>;
  /** How long an agent may take to answer `initialize` and open its session before it counts as hung. */
  startTimeoutSeconds: number;
}

export const DEFAULT_START_TIMEOUT_S = 120;

/**
 * The host until the installer and the model gateway are wired in: it has no agent installed and no
 * gateway, and says so, so a conversation that chose an ACP agent fails its start with that message.
 */
export function acpHost(given: Partial<AcpHost> = {}): AcpHost {
  return {
    install:
      given.install ??
      ((kind) => Promise.reject(new Error(`The ${kind} agent is not installed on this computer.`))),
    modelEndpoint:
      given.modelEndpoint ??
      (() => Promise.reject(new Error('The model gateway that coding agents call is not running.'))),
    startTimeoutSeconds: given.startTimeoutSeconds ?? DEFAULT_START_TIMEOUT_S,
  };
}
