import type { MCPConfig } from '../../shared/api/mcp';
import type { McpStdioServer } from '../microagents/microagent';
import type { SandboxWorkspace } from '../sandbox/sandbox-workspace';
import { McpToolset } from './mcp-toolset';
import { mergeServers } from './server-config';
import { openTransport } from './server-transports';

export interface ConversationMcpOptions {
  /** The settings' servers, with their `api_key`s. */
  settings: MCPConfig | null;
  /** The start request's servers, with their `api_key`s. */
  request: MCPConfig | null;
  /** The stdio servers of the conversation's microagents. */
  microagents: McpStdioServer[];
  /** Where stdio servers run. */
  workspace: SandboxWorkspace;
  builtinNames: Iterable<string>;
  vision: boolean;
  /** Timeout of every call (DOCKHAND_MCP_CALL_TIMEOUT_S), else null for each server's own. */
  callTimeoutSeconds: number | null;
}

/** Connects a conversation's MCP servers (start steps 8-9): failures are warnings, never fatal. */
export function connectConversationMcp(options: ConversationMcpOptions): Promise<McpToolset> {
  const servers = mergeServers({
    settings: options.settings,
    request: options.request,
    microagents: options.microagents,
    timeoutOverrideS: options.callTimeoutSeconds,
  });
  return McpToolset.connect({
    servers,
    open: (server) => openTransport(server, options.workspace),
    builtinNames: options.builtinNames,
    vision: options.vision,
  });
}
