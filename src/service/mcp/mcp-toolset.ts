import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { AgentTool } from '../agent/tools/tool';
import { CommandNotFound } from '../sandbox/sandbox-models';
import { DISCOVERY_TIMEOUT_MS, McpConnection } from './mcp-connection';
import { mcpAgentTool } from './mcp-tool';
import type { McpServer } from './server-config';
import { assignToolNames, nameMap, type NamedTool } from './tool-names';

export interface ToolsetOptions {
  servers: McpServer[];
  /** A new transport to a server (stdio in the sandbox, or HTTP from the service). */
  open(server: McpServer): Promise<Transport>;
  /** Names MCP tools must not take (the built-in tools'). */
  builtinNames: Iterable<string>;
  /** Whether the model sees images (else image parts read `[image omitted]`). */
  vision: boolean;
  discoveryTimeoutMs?: number;
}

/** The warning for a server that could not be used; the conversation goes on without it. */
function warningFor(server: McpServer, error: unknown): string {
  if (error instanceof CommandNotFound) return error.message;
  const reason = error instanceof Error ? error.message : String(error);
  return `MCP server "${server.name}" could not be reached: ${reason}`;
}

/**
 * The MCP tools of one conversation: every server connected and listed in parallel (30 s each), their tools
 * named and frozen for the conversation. Servers that fail only produce warnings.
 */
export class McpToolset {
  private constructor(
    private readonly connections: McpConnection[],
    readonly tools: AgentTool[],
    readonly named: NamedTool[],
    readonly warnings: string[],
  ) {}

  static async connect(options: ToolsetOptions): Promise<McpToolset> {
    const connections = options.servers.map(
      (server) =>
        new McpConnection(
          server,
          () => options.open(server),
          options.discoveryTimeoutMs ?? DISCOVERY_TIMEOUT_MS,
        ),
    );
    const outcomes = await Promise.allSettled(connections.map((c) => c.discover()));
    const warnings: string[] = [];
    const live: McpConnection[] = [];
    outcomes.forEach((outcome, index) => {
      const connection = connections[index] as McpConnection;
      if (outcome.status === 'fulfilled') live.push(connection);
      else warnings.push(warningFor(connection.server, outcome.reason));
    });
    const named = assignToolNames(
      live.map((c) => ({ server: c.server.name, tools: c.tools.map((t) => t.name) })),
      options.builtinNames,
    );
    const tools = named.map((entry) => {
      const connection = live.find((c) => c.server.name === entry.server) as McpConnection;
      const tool = connection.tools.find((t) => t.name === entry.tool) as McpConnection['tools'][number];
      return mcpAgentTool(entry, tool, connection, options.vision);
    });
    return new McpToolset(live, tools, named, warnings);
  }

  /** The `system` event's map: the name the model calls -> the server and its name for the tool. */
  nameMap(): Record<string, { server: string; tool: string }> {
    return nameMap(this.named);
  }

  /** Stop: cancels every call in flight (`notifications/cancelled`). */
  cancelCalls(): void {
    for (const connection of this.connections) connection.cancelCalls();
  }

  /** Closes every client (and ends the stdio server processes). */
  async close(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.close()));
  }
}
