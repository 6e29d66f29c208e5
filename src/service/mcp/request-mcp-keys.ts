import type { MCPConfig } from '../../shared/api/mcp';
import type { SecretStore } from '../secrets/secret-store';
import { forgetMcpSecrets, storeMcpSecrets, withMcpSecrets } from './mcp-secrets';

/** The secret-store account prefix of a conversation's own `mcp_config` secrets. */
function prefix(conversationId: string): string {
  return `mcp:${conversationId}:`;
}

/**
 * A start request's `mcp_config` as the conversation record keeps it: its `api_key`s and stdio `env` values
 * moved into the secret store (per conversation), so the record in SQLite holds none.
 */
export function storeRequestMcpKeys(
  secrets: SecretStore,
  conversationId: string,
  config: MCPConfig,
): Promise<MCPConfig> {
  return storeMcpSecrets(secrets, prefix(conversationId), config);
}

/** The stored request `mcp_config` with its secrets back from the secret store. */
export function withRequestMcpKeys(
  secrets: SecretStore,
  conversationId: string,
  config: MCPConfig,
): Promise<MCPConfig> {
  return withMcpSecrets(secrets, prefix(conversationId), config);
}

/** Deletes a conversation's request secrets (when the conversation is deleted). */
export async function forgetRequestMcpKeys(
  secrets: SecretStore,
  conversationId: string,
  config: MCPConfig | null | undefined,
): Promise<void> {
  await forgetMcpSecrets(secrets, prefix(conversationId), config);
}
