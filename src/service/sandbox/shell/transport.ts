/** How a ShellSession reaches a sandbox: a TTY running bash, one-off commands, and file writes. */

export interface TerminalHandlers {
  /** Bytes the terminal printed. */
  onData(chunk: Buffer): void;
  /** The shell ended; called once, with its exit code (128 + signal when killed). */
  onExit(exitCode: number): void;
}

export interface OpenTerminalOptions extends TerminalHandlers {
  /** Directory for the shell to start in; the transport's own working directory when null. */
  startDir: string | null;
}

/** A running `bash --rcfile <rc> -i` on a 1000-column TTY. */
export interface Terminal {
  write(data: string): void;
  /** Detaches from the terminal; the session ends the shell itself first. */
  close(): void;
}

export interface OneOffResult {
  exitCode: number;
  /** stdout and stderr together. */
  output: string;
}

export interface ShellTransport {
  /** Where command scripts (`<id>.sh`) are written, as the shell sees it. */
  readonly commandDir: string;
  /** Where full outputs (`<id>.log`) are saved, as the shell sees it. */
  readonly outputDir: string;
  /** Writes the rcfile, creates commandDir and outputDir, then starts bash with the prompt marker rcfile. */
  open(options: OpenTerminalOptions): Promise<Terminal>;
  /** Runs `sh -c script` beside the shell (as root in a container), e.g. to signal a process group. */
  run(script: string): Promise<OneOffResult>;
  /** Writes a file where the shell can read it. */
  writeFile(path: string, data: Buffer): Promise<void>;
}
