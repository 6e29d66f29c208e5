import type { MCPConfig } from '../../shared/api/mcp';
import type { McpStdioServer } from '../microagents/microagent';

/** The call timeout of servers that do not set one (agent-behaviour §3.4). */
export const DEFAULT_CALL_TIMEOUT_S = 60;

interface ServerBase {
  /** A unique `[A-Za-z0-9_-]` name: the stdio server's own, or one made from a URL. */
  name: string;
  /** How long one tool call may take, in seconds. */
  timeoutS: number;
}

export interface RemoteServer extends ServerBase {
  kind: 'sse' | 'shttp';
  url: string;
  /** Sent as a Bearer token. */
  apiKey: string | null;
}

export interface StdioServer extends ServerBase {
  kind: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
}

export type McpServer = RemoteServer | StdioServer;

/** Where a conversation's servers come from, in merge order: a later source wins a clash. */
export interface ServerSources {
  settings: MCPConfig | null | undefined;
  request: MCPConfig | null | undefined;
  microagents: McpStdioServer[];
  /** Overrides every server's call timeout (tests; `DOCKHAND_MCP_CALL_TIMEOUT_S`). */
  timeoutOverrideS?: number | null;
}

/** A `[A-Za-z0-9_-]` name for a URL server: host, port and path (`127_0_0_1_8080_mcp`). */
export function nameFromUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'mcp';
  }
  const raw = `${parsed.hostname}${parsed.port ? `_${parsed.port}` : ''}${parsed.pathname}`;
  return (
    raw
      .replace(/[^A-Za-z0-9_-]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 40) || 'mcp'
  );
}

function remoteServers(config: MCPConfig | null | undefined, overrideS: number | null): RemoteServer[] {
  if (!config) return [];
  const sse = config.sse_servers.map((s) => ({
    kind: 'sse' as const,
    url: s.url,
    apiKey: ('api_key' in s && s.api_key) || null,
    timeoutS: DEFAULT_CALL_TIMEOUT_S,
  }));
  const shttp = config.shttp_servers.map((s) => ({
    kind: 'shttp' as const,
    url: s.url,
    apiKey: s.api_key || null,
    timeoutS: s.timeout ?? DEFAULT_CALL_TIMEOUT_S,
  }));
  return [...sse, ...shttp].map((s) => ({
    ...s,
    name: nameFromUrl(s.url),
    timeoutS: overrideS ?? s.timeoutS,
  }));
}

function stdioServers(servers: McpStdioServer[], overrideS: number | null): StdioServer[] {
  return servers.map((s) => ({
    kind: 'stdio',
    name: s.name,
    command: s.command,
    args: s.args ?? [],
    env: s.env ?? {},
    timeoutS: overrideS ?? DEFAULT_CALL_TIMEOUT_S,
  }));
}

/**
 * The servers of a conversation: the settings', then the request's `mcp_config`, then the microagents' stdio
 * servers. URL servers are the same server when their URLs match, stdio servers when their names do; the
 * later one wins and keeps the earlier one's place. Names are made unique (`_2`, `_3`, ...).
 */
export function mergeServers(sources: ServerSources): McpServer[] {
  const overrideS = sources.timeoutOverrideS ?? null;
  const ordered: McpServer[] = [
    ...remoteServers(sources.settings, overrideS),
    ...stdioServers(sources.settings?.stdio_servers ?? [], overrideS),
    ...remoteServers(sources.request, overrideS),
    ...stdioServers(sources.request?.stdio_servers ?? [], overrideS),
    ...stdioServers(sources.microagents, overrideS),
  ];
  const byKey = new Map<string, McpServer>();
  for (const server of ordered)
    byKey.set(server.kind === 'stdio' ? `stdio:${server.name}` : server.url, server);
  const taken = new Set<string>();
  return [...byKey.values()].map((server) => {
    let name = server.name;
    for (let n = 2; taken.has(name); n++) name = `${server.name}_${n}`;
    taken.add(name);
    return { ...server, name };
  });
}

/** A positive number of seconds from the environment, else null. */
export function timeoutOverrideFromEnv(env: NodeJS.ProcessEnv): number | null {
  const value = Number(env.DOCKHAND_MCP_CALL_TIMEOUT_S);
  return Number.isFinite(value) && value > 0 ? value : null;
}
