import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { SandboxWorkspace } from '../sandbox/sandbox-workspace';
import type { McpServer, RemoteServer } from './server-config';

/** SSE and streamable HTTP servers are reached from the service, with the `api_key` as a Bearer token. */
export function remoteTransport(server: RemoteServer): Transport {
  const url = new URL(server.url);
  const requestInit: RequestInit = server.apiKey
    ? { headers: { Authorization: `Bearer ${server.apiKey}` } }
    : {};
  return server.kind === 'sse'
    ? new SSEClientTransport(url, { requestInit })
    : new StreamableHTTPClientTransport(url, { requestInit });
}

/**
 * Opens a new transport to a server (again, for a reconnect). Stdio servers run where the agent's commands
 * run: in the sandbox's workspace, as its user in the working directory.
 */
export function openTransport(server: McpServer, workspace: SandboxWorkspace): Promise<Transport> {
  return server.kind === 'stdio'
    ? workspace.mcpStdioTransport(server)
    : Promise.resolve(remoteTransport(server));
}
