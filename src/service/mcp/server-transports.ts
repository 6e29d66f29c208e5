import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import path from 'node:path';
import which from 'which';
import type { SandboxTarget } from '../sandbox/sandbox-provider';
import { runInContainer } from '../sandbox/files/container-command';
import { bundledNode, isBundledCommand, RUNTIME_BIN } from './bundled-runtime';
import { DockerExecTransport } from './docker-exec-transport';
import { provideBundledRuntime } from './runtime-copy';
import type { McpServer, RemoteServer, StdioServer } from './server-config';

/** A server that cannot be started at all (shown to the user as is). */
export class ServerStartError extends Error {}

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

/** Whether `command` is found on the sandbox PATH (as the user the server will run as). */
async function commandExists(
  container: Parameters<typeof runInContainer>[0],
  command: string,
  user: string,
): Promise<boolean> {
  const found = await runInContainer(
    container,
    ['sh', '-c', 'command -v "$1" >/dev/null', 'sh', command],
    user,
  );
  return found.exitCode === 0;
}

/** Whether a bare command is on the host's PATH; a path (`./server`) is left for the spawn to find. */
async function hostCommandExists(command: string, pathVariable: string | undefined): Promise<boolean> {
  if (command.includes('/') || command.includes(path.sep)) return true;
  return (await which(command, { nothrow: true, ...(pathVariable ? { path: pathVariable } : {}) })) !== null;
}

/** Whether Dockhand's bundled runtime now provides a command the sandbox lacks (`node`, `npx`). */
function bundledRuntimeProvides(container: Parameters<typeof runInContainer>[0], command: string) {
  return isBundledCommand(command)
    ? provideBundledRuntime(container, bundledNode(), command)
    : Promise.resolve(false);
}

/**
 * Stdio servers run where the agent's commands run: inside the Docker sandbox over `docker exec -i` as
 * the sandbox user (`dockhand`) in the working directory, or on the host for the process sandbox. A
 * missing `node`/`npx` is run from Dockhand's runtime copied to `/opt/dockhand/bin` (last on the PATH).
 */
export async function stdioTransport(server: StdioServer, target: SandboxTarget): Promise<Transport> {
  if (target.kind === 'process') {
    const env = { ...getDefaultEnvironment(), ...target.env, ...server.env };
    if (!(await hostCommandExists(server.command, env.PATH))) {
      throw new ServerStartError(
        `MCP server "${server.name}" could not start: command "${server.command}" was not found on this computer's PATH.`,
      );
    }
    return new StdioClientTransport({
      command: server.command,
      args: server.args,
      env,
      cwd: target.workingDir,
      stderr: 'pipe',
    });
  }
  const container = target.docker.getContainer(target.container);
  const user = target.user ?? 'root'; // the agent's shell user, `dockhand` in Dockhand's images
  const found = await commandExists(container, server.command, user);
  if (!found && !(await bundledRuntimeProvides(container, server.command))) {
    const image = (await container.inspect()).Config.Image;
    throw new ServerStartError(
      `MCP server "${server.name}" could not start: command "${server.command}" was not found in the sandbox image ${image}.`,
    );
  }
  return new DockerExecTransport(container, {
    command: server.command,
    args: server.args,
    user,
    workingDir: target.workingDir,
    env: server.env,
    ...(found ? {} : { pathSuffix: RUNTIME_BIN }),
  });
}

/** Opens a new transport to a server (again, for a reconnect). */
export function openTransport(server: McpServer, target: SandboxTarget): Promise<Transport> {
  return server.kind === 'stdio' ? stdioTransport(server, target) : Promise.resolve(remoteTransport(server));
}
