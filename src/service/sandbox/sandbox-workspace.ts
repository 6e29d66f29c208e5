import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { SandboxFiles } from './files/sandbox-files';
import type { AppPorts } from './sandbox-models';
import type { ShellSession, ShellSessionOptions } from './shell/shell-session';

/**
 * How much of each output stream of a one-off command is kept. The rest is read and dropped, so a command
 * that prints without end (or `git cat-file` of a huge blob) cannot exhaust the service's memory.
 */
export const MAX_COMMAND_OUTPUT_BYTES = 8 * 1024 * 1024;

/** The exit code of a command that ran out of time (as coreutils `timeout` reports it). */
export const TIMED_OUT_EXIT_CODE = 124;

export interface ExecOptions {
  /** Added to this command's environment only (how secrets reach a command without being written anywhere). */
  env?: Record<string, string>;
  /**
   * `root` runs the command as root where the sandbox has one (a container); by default, and always on a
   * process sandbox, it runs as the sandbox user.
   */
  user?: 'root';
  /** The directory it starts in; by default the sandbox's own (a container's working dir, else the service's). */
  cwd?: string;
  /** Seconds after which the command is killed; it then ends with TIMED_OUT_EXIT_CODE. */
  timeout?: number;
  /** Bytes kept of each output stream (MAX_COMMAND_OUTPUT_BYTES). */
  maxOutput?: number;
}

export interface ExecResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** Whether stdout or stderr went over the limit and holds only its first bytes. */
  truncated: boolean;
}

/** Runs one command in a sandbox, without a shell and without a TTY, and waits for its end. */
export type SandboxExec = (argv: string[], options?: ExecOptions) => Promise<ExecResult>;

/** What the shell of a conversation starts with. */
export interface WorkspaceShellOptions extends ShellSessionOptions {
  /** Added to the sandbox's environment for the shell and every command it runs. */
  env: Record<string, string>;
}

/** An MCP server run as a command inside the sandbox, talking JSON-RPC over its stdin and stdout. */
export interface StdioCommand {
  /** The server's name, for messages. */
  name: string;
  command: string;
  args: string[];
  /** Added to the server's environment. */
  env: Record<string, string>;
}

/** A terminal's size in character cells. */
export interface TerminalSize {
  cols: number;
  rows: number;
}

/** What a person's terminal starts with. */
export interface TerminalOptions extends TerminalSize {
  /** Bytes the terminal printed, in order. */
  onData(chunk: Buffer): void;
  /** The shell ended; called once, with its exit code (128 + signal when killed), -1 when unknown. */
  onExit(exitCode: number): void;
}

/** An interactive shell on a TTY of its own, for a person (not the agent's shell). */
export interface SandboxTerminal {
  /** Keystrokes and pastes; ignored once the shell has ended. */
  write(data: Buffer): void;
  /** Changes the TTY's size (the programs on it get SIGWINCH). */
  resize(size: TerminalSize): Promise<void>;
  /** Hangs the terminal up and ends its shell (killed when it does not exit on the hang-up). */
  close(): Promise<void>;
}

/**
 * A RUNNING sandbox as the rest of the service sees it, whatever runs it: where its workspace is, and how to
 * run commands, a shell, file operations and MCP servers in it. `SandboxService.workspace(id)` hands one out;
 * nothing outside `sandbox/` knows which provider made it.
 */
export interface SandboxWorkspace {
  readonly sandboxId: string;
  /**
   * False when commands run unsandboxed on this computer, as the user (the process provider): code a
   * repository brings then never runs on its own.
   */
  readonly isolated: boolean;
  /** The workspace's root: `/workspace` in a container, `<dataDir>/workspaces/<id>` for a process sandbox. */
  readonly workspaceDir: string;
  /** The spec's working directory under the workspace, e.g. `/workspace/project`: the agent starts there. */
  readonly workingDir: string;
  /** The ports apps in the sandbox listen on (APP_PORT_1/2); the URLs users open are the sandbox's exposed URLs. */
  readonly appPorts: AppPorts;
  /** File operations by absolute sandbox path, as the sandbox user. */
  readonly files: SandboxFiles;

  /**
   * Makes a folder of this computer readable in the sandbox under `name` (unique per content: it carries a
   * version) and resolves with its path there. A container sees a read-only copy shared by every sandbox of
   * the engine, copied once; a process sandbox reads the folder itself.
   */
  lend(folder: string, name: string): Promise<string>;

  /**
   * Runs `argv` and resolves with its exit code and output (each stream capped at `maxOutput`, `truncated`
   * says when more was dropped); rejects only when the command could not be run at all.
   */
  exec(argv: string[], options?: ExecOptions): Promise<ExecResult>;

  /** Where a path really leads (`realpath -m`: links resolved, missing parts kept); null for a link loop. */
  realpath(path: string): Promise<string | null>;

  /**
   * A new interactive shell (bash on a terminal) as the sandbox user in the working directory, not yet
   * started. On a process sandbox it is adopted by the sandbox: pausing, resuming and deleting the sandbox
   * stop, continue and end it, until `release()`.
   */
  shell(options: WorkspaceShellOptions): ShellSession;

  /**
   * A person's interactive shell: bash on a TTY of `size`, as the sandbox user in the working directory,
   * started and resolved once it runs. Nothing of the agent's shell or of the conversation's secrets is in it.
   */
  terminal(options: TerminalOptions): Promise<SandboxTerminal>;

  /**
   * Puts an executable script outside the workspace, where the sandbox user can run it but code in the
   * workspace cannot change it (e.g. git's credential helper); resolves to its path.
   */
  installHelper(name: string, script: string): Promise<string>;

  /**
   * A transport to an MCP stdio server started in the sandbox as the sandbox user in the working directory
   * (a Docker sandbox may provide a missing `node`/`npx` from Dockhand's own runtime). Rejects with
   * CommandNotFound when the command is not there.
   */
  mcpStdioTransport(server: StdioCommand): Promise<Transport>;

  /** Gives back what this workspace adopted into the sandbox (its shells); the sandbox itself stays. */
  release(): void;
}
