import type { McpServer as AcpMcpServer } from '@agentclientprotocol/sdk';
import type { McpServer } from '../mcp/server-config';

/**
 * Dockhand's MCP servers of a conversation (`mergeServers`: the settings', the request's, the microagents')
 * as ACP `session/new` passes them: stdio servers run by the agent in the sandbox, SSE and streamable HTTP
 * servers reached by the agent with the `api_key` as a Bearer token.
 */
export function acpMcpServers(servers: McpServer[]): AcpMcpServer[] {
  return servers.map((server) => {
    if (server.kind === 'stdio') {
      return {
        name: server.name,
        command: server.command,
        args: server.args,
        env: Object.entries(server.env).map(([name, value]) => ({ name, value })),
      };
    }
    const headers = server.apiKey ? [{ name: 'Authorization', value: `Bearer ${server.apiKey}` }] : [];
    return { type: server.kind === 'sse' ? 'sse' : 'http', name: server.name, url: server.url, headers };
  });
}
