import { MASKED_API_KEY, type MCPConfig } from '../../shared/api/mcp';
import type { SecretStore } from '../secrets/secret-store';

/** The secret-store account of an `api_key` sent in a conversation's own `mcp_config`. */
function account(conversationId: string, url: string): string {
  return `mcp:${conversationId}:${url}`;
}

type Keyed = { url: string; api_key?: string | null | undefined };

function keyed(config: MCPConfig): Keyed[] {
  return [...config.sse_servers, ...config.shttp_servers];
}

/**
 * A start request's `mcp_config` as the conversation record keeps it: its `api_key`s moved into the secret
 * store (per conversation), so the record in SQLite holds none.
 */
export async function storeRequestMcpKeys(
  secrets: SecretStore,
  conversationId: string,
  config: MCPConfig,
): Promise<MCPConfig> {
  for (const server of keyed(config)) {
    if (server.api_key && server.api_key !== MASKED_API_KEY) {
      await secrets.set(account(conversationId, server.url), server.api_key);
    }
  }
  const strip = <T extends Keyed>({ api_key: _key, ...rest }: T) => rest as T;
  return {
    sse_servers: config.sse_servers.map(strip),
    shttp_servers: config.shttp_servers.map(strip),
    stdio_servers: config.stdio_servers,
  };
}

/** The stored request `mcp_config` with its `api_key`s back from the secret store. */
export async function withRequestMcpKeys(
  secrets: SecretStore,
  conversationId: string,
  config: MCPConfig,
): Promise<MCPConfig> {
  const withKey = async <T extends Keyed>(server: T) => ({
    ...server,
    api_key: await secrets.get(account(conversationId, server.url)),
  });
  return {
    sse_servers: await Promise.all(config.sse_servers.map(withKey)),
    shttp_servers: await Promise.all(config.shttp_servers.map(withKey)),
    stdio_servers: config.stdio_servers,
  };
}

/** Deletes a conversation's request `api_key`s (when the conversation is deleted). */
export async function forgetRequestMcpKeys(
  secrets: SecretStore,
  conversationId: string,
  config: MCPConfig | null | undefined,
): Promise<void> {
  if (!config || secrets.status.state !== 'ok') return;
  for (const server of keyed(config)) {
    if (await secrets.get(account(conversationId, server.url))) {
      await secrets.delete(account(conversationId, server.url));
    }
  }
}
