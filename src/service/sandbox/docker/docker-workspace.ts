import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type Docker from 'dockerode';
import { DockerSandboxFiles } from '../files/docker-files';
import { CommandNotFound, type AppPorts } from '../sandbox-models';
import type {
  ExecOptions,
  ExecResult,
  SandboxTerminal,
  SandboxWorkspace,
  StdioCommand,
  TerminalOptions,
  WorkspaceShellOptions,
} from '../sandbox-workspace';
import { DockerShellTransport } from '../shell/docker-transport';
import { ShellSession } from '../shell/shell-session';
import { bundledNode, isBundledCommand, RUNTIME_BIN } from './bundled-runtime';
import { dockerExec } from './docker-exec';
import { openDockerTerminal } from './docker-terminal';
import type { LentFolders } from './lent-folders';
import { provideBundledRuntime } from './runtime-copy';

export interface DockerWorkspaceOptions {
  sandboxId: string;
  container: Docker.Container;
  /** The user the container runs as (the image's non-root user), or null for root. */
  user: string | null;
  /** The volume's mount point. */
  workspaceDir: string;
  /** The spec's working directory, e.g. `/workspace/project`. */
  workingDir: string;
  appPorts: AppPorts;
  /** The folders lent to every sandbox of the engine. */
  lent: LentFolders;
}

// Run as root: writes the helper ($2) to $1, where only root can change it.
const INSTALL_HELPER_SCRIPT = `set -e
mkdir -p "$(dirname "$1")"
printf '%s' "$2" > "$1"
chmod 0755 "$1"`;

/** A Docker sandbox's workspace: every command is a `docker exec` in its container, as the image's user. */
export class DockerWorkspace implements SandboxWorkspace {
  readonly isolated = true;
  readonly sandboxId: string;
  readonly workspaceDir: string;
  readonly workingDir: string;
  readonly appPorts: AppPorts;
  readonly files: DockerSandboxFiles;
  private readonly container: Docker.Container;
  private readonly lent: LentFolders;
  /** The agent's user, `dockhand` in Dockhand's images. */
  private readonly user: string;

  constructor(options: DockerWorkspaceOptions) {
    this.sandboxId = options.sandboxId;
    this.container = options.container;
    this.user = options.user ?? 'root';
    this.workspaceDir = options.workspaceDir;
    this.workingDir = options.workingDir;
    this.appPorts = options.appPorts;
    this.files = new DockerSandboxFiles(this.container, { user: this.user });
    this.lent = options.lent;
  }

  async lend(folder: string, name: string): Promise<string> {
    return this.lent.lend(folder, name, (await this.container.inspect()).Config.Image);
  }

  exec(argv: string[], options: ExecOptions = {}): Promise<ExecResult> {
    return dockerExec(this.container, argv, { ...options, user: options.user ?? this.user });
  }

  async realpath(path: string): Promise<string | null> {
    const result = await this.exec(['realpath', '-m', '-z', '--', path]);
    return result.exitCode === 0 ? result.stdout.replace(/\0$/, '') : null;
  }

  shell(options: WorkspaceShellOptions): ShellSession {
    const { env, ...sessionOptions } = options;
    const transport = new DockerShellTransport(this.container, {
      user: this.user,
      workingDir: this.workingDir,
      env,
      files: this.files,
    });
    return new ShellSession(transport, sessionOptions);
  }

  terminal(options: TerminalOptions): Promise<SandboxTerminal> {
    return openDockerTerminal(this.container, { ...options, user: this.user, workingDir: this.workingDir });
  }

  /** In Dockhand's folder of the image (`/opt/dockhand/bin`), written as root. */
  async installHelper(name: string, script: string): Promise<string> {
    const helperPath = `${RUNTIME_BIN}/${name}`;
    const result = await this.exec(['sh', '-c', INSTALL_HELPER_SCRIPT, 'sh', helperPath, script], {
      user: 'root',
    });
    if (result.exitCode !== 0) throw new Error(result.stderr.trim() || `exit code ${result.exitCode}`);
    return helperPath;
  }

  /**
   * `docker exec -i` of the server as the sandbox user in the working directory. A missing `node`/`npx` is
   * run from Dockhand's runtime copied to `/opt/dockhand/bin` (last on the PATH).
   */
  async mcpStdioTransport(server: StdioCommand): Promise<Transport> {
    const found = await this.commandExists(server.command);
    if (!found && !(await this.bundledRuntimeProvides(server.command))) {
      const image = (await this.container.inspect()).Config.Image;
      throw new CommandNotFound(
        `MCP server "${server.name}" could not start: command "${server.command}" was not found in the sandbox image ${image}.`,
      );
    }
    // The MCP SDK loads only when a conversation connects its servers.
    const { DockerExecTransport } = await import('./docker-mcp-transport');
    return new DockerExecTransport(this.container, {
      command: server.command,
      args: server.args,
      user: this.user,
      workingDir: this.workingDir,
      env: server.env,
      ...(found ? {} : { pathSuffix: RUNTIME_BIN }),
    });
  }

  /** Nothing to give back: a container's processes are the container's. */
  release(): void {}

  /** Whether `command` is found on the sandbox PATH (as the user the server will run as). */
  private async commandExists(command: string): Promise<boolean> {
    return (await this.exec(['sh', '-c', 'command -v "$1" >/dev/null', 'sh', command])).exitCode === 0;
  }

  /** Whether Dockhand's bundled runtime now provides a command the sandbox lacks (`node`, `npx`). */
  private bundledRuntimeProvides(command: string): Promise<boolean> {
    return isBundledCommand(command)
      ? provideBundledRuntime(this.container, bundledNode(), command)
      : Promise.resolve(false);
  }
}
