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

/** An installed agent: its folder on this computer, and the name it is lent to sandboxes under. */
export interface AgentFolder {
  folder: string;
  lentName: string;
}

/**
 * What running a coding agent over ACP needs from the rest of the service: the agent installed on this
 * computer, and the model gateway's endpoint of a conversation. `createService` builds it.
 */
export interface AcpHost {
  /** The installed agent, installed first when it is not (its progress as notes). */
  install(kind: AcpAgentKind, onProgress: (message: string) => void): Promise<AgentFolder>;
  /** The conversation's model endpoint, as its sandbox reaches it. */
  modelEndpoint(conversationId: string, sandboxId: string): Promise<ModelEndpoint>;
  /** How long an agent may take to answer `initialize` and open its session before it counts as hung. */
  startTimeoutSeconds: number;
}

export const DEFAULT_START_TIMEOUT_S = 120;

/**
 * The host of a service: agents from its installer and model endpoints from its gateway, unless a test
 * gives its own.
 */
export function acpHost(
  service: Pick<AcpHost, 'install' | 'modelEndpoint'>,
  given: Partial<AcpHost> = {},
): AcpHost {
  return {
    install: given.install ?? service.install,
    modelEndpoint: given.modelEndpoint ?? service.modelEndpoint,
    startTimeoutSeconds: given.startTimeoutSeconds ?? DEFAULT_START_TIMEOUT_S,
  };
}
