import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import which from 'which';
import { LocalSandboxFiles } from '../files/local-files';
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
import { pauseProcessTree, resumeProcessTree } from '../shell/process-tree';
import { ProcessShellTransport } from '../shell/process-transport';
import { ShellSession } from '../shell/shell-session';
import { localRealpath } from './local-realpath';
import { processExec } from './process-exec';
import { openProcessTerminal } from './process-terminal';
import type { SandboxProcess } from './sandbox-processes';

export interface ProcessWorkspaceOptions {
  sandboxId: string;
  /** `<dataDir>/workspaces/<id>`, what Docker sandboxes call /workspace. */
  workspaceDir: string;
  /** `<workspaceDir>/project`. */
  workingDir: string;
  /** Every command's base environment (the host's PATH, HOME and locale, and the spec's). */
  env: Record<string, string>;
  appPorts: AppPorts;
  /** A folder outside the workspace that only the host user can read, for helpers. */
  helperDir: string;
  /** Puts a process under the sandbox's control (pause, resume, delete); returns the function that releases it. */
  adopt(process: SandboxProcess): () => void;
}

/** A process sandbox's workspace: commands run on this computer, as the user, in the sandbox's folder. */
export class ProcessWorkspace implements SandboxWorkspace {
  readonly isolated = false;
  readonly sandboxId: string;
  readonly workspaceDir: string;
  readonly workingDir: string;
  readonly appPorts: AppPorts;
  readonly files = new LocalSandboxFiles();
  private readonly releases: (() => void)[] = [];

  constructor(private readonly options: ProcessWorkspaceOptions) {
    this.sandboxId = options.sandboxId;
    this.workspaceDir = options.workspaceDir;
    this.workingDir = options.workingDir;
    this.appPorts = options.appPorts;
  }

  /** There is no other user: `user: 'root'` runs as the host user too. */
  exec(argv: string[], { env, cwd, timeout, maxOutput }: ExecOptions = {}): Promise<ExecResult> {
    return processExec(argv, { env: { ...this.options.env, ...env }, cwd, timeout, maxOutput });
  }

  /** Commands run on this computer: the folder is read where it is. */
  lend(folder: string): Promise<string> {
    return Promise.resolve(folder);
  }

  realpath(path: string): Promise<string | null> {
    return localRealpath(path);
  }

  /** The shell and the jobs it starts are the sandbox's: pause stops them, resume continues them, delete ends them. */
  shell(options: WorkspaceShellOptions): ShellSession {
    const { env, ...sessionOptions } = options;
    const transport = new ProcessShellTransport({
      workingDir: this.workingDir,
      env: { ...this.options.env, ...env },
    });
    const shell = new ShellSession(transport, sessionOptions);
    this.releases.push(
      this.options.adopt({
        pause: () => transport.pause(),
        resume: () => transport.resume(),
        kill: () => shell.close(),
      }),
    );
    return shell;
  }

  /** Like the shell, the terminal and its jobs are the sandbox's until the terminal ends. */
  async terminal(options: TerminalOptions): Promise<SandboxTerminal> {
    let release = (): void => undefined;
    const terminal = await openProcessTerminal({
      ...options,
      onExit: (exitCode) => {
        release();
        options.onExit(exitCode);
      },
      workingDir: this.workingDir,
      env: { ...this.options.env, TERM: 'xterm-256color' },
    });
    release = this.options.adopt({
      pause: () => pauseProcessTree(terminal.pid),
      resume: () => resumeProcessTree(terminal.pid),
      kill: () => terminal.close(),
    });
    return terminal;
  }

  async installHelper(name: string, script: string): Promise<string> {
    const { helperDir } = this.options;
    const helperPath = path.join(helperDir, name);
    await mkdir(helperDir, { recursive: true, mode: 0o700 });
    await chmod(helperDir, 0o700);
    await writeFile(helperPath, script, { mode: 0o700 });
    await chmod(helperPath, 0o700);
    return helperPath;
  }

  /** The server as a host process in the working directory; a bare command must be on the host's PATH. */
  async mcpStdioTransport(server: StdioCommand): Promise<Transport> {
    // The MCP SDK loads only when a conversation connects its servers.
    const { getDefaultEnvironment, StdioClientTransport } =
      await import('@modelcontextprotocol/sdk/client/stdio.js');
    const env = { ...getDefaultEnvironment(), ...this.options.env, ...server.env };
    if (!(await hostCommandExists(server.command, env.PATH))) {
      throw new CommandNotFound(
        `MCP server "${server.name}" could not start: command "${server.command}" was not found on this computer's PATH.`,
      );
    }
    return new StdioClientTransport({
      command: server.command,
      args: server.args,
      env,
      cwd: this.workingDir,
      stderr: 'pipe',
    });
  }

  release(): void {
    for (const release of this.releases.splice(0)) release();
  }
}

/** Whether a bare command is on the host's PATH; a path (`./server`) is left for the spawn to find. */
async function hostCommandExists(command: string, pathVariable: string | undefined): Promise<boolean> {
  if (command.includes('/') || command.includes(path.sep)) return true;
  return (await which(command, { nothrow: true, ...(pathVariable ? { path: pathVariable } : {}) })) !== null;
}
