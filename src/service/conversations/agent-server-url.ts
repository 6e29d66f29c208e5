import type { SandboxInfo } from '../../shared/api/sandboxes';

/** The sandbox's agent-server endpoint (its AGENT_SERVER exposed URL), while it runs. */
export function agentServerUrl(sandbox: SandboxInfo | null): string | null {
  return sandbox?.exposed_urls?.find((url) => url.name === 'AGENT_SERVER')?.url ?? null;
}

/**
 * Where OpenHands V1 clients reach a conversation (`conversation_url`, and `url` of a V1 conversation's V0
 * info): its sandbox's agent-server endpoint, while the sandbox runs; else null.
 */
export function conversationUrl(sandbox: SandboxInfo, conversationId: string): string | null {
  const base = agentServerUrl(sandbox);
  return base ? `${base}/api/conversations/${conversationId}` : null;
}
