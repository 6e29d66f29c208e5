import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalSandboxFiles } from '../files/local-files';
import { bashrc } from './prompt-marker';
import { pauseProcessTree, resumeProcessTree, signalIfAlive } from './process-tree';
import type { OneOffResult, OpenTerminalOptions, ShellTransport, Terminal } from './transport';

export interface ProcessShellTransportOptions {
  /** Where bash starts. */
  workingDir: string;
  /** bash's whole environment (e.g. `hostBaseEnvironment`'s PATH, HOME and locale; TERM defaults to xterm-256color). */
  env: NodeJS.ProcessEnv;
  /** Holds the rcfile and the cmd/ and out/ folders (<tmpdir>/dockhand). */
  stateDir?: string;
}

const files = new LocalSandboxFiles();

const COLUMNS = 1000;
const ROWS = 50;

// Runs argv on a new pseudo-terminal, relays it to stdin/stdout and exits with the child's code
// (128 + signal when killed). Unlike util-linux `script`, it does not stop itself when the shell is
// stopped, so pause() and resume() work.
const PTY_WRAPPER = `import os, pty, sys
code = os.waitstatus_to_exitcode(pty.spawn(sys.argv[1:]))
sys.exit(code if code >= 0 else 128 - code)`;

/**
 * The shell as bash on this machine, on a real TTY made by python3's pty module (Linux). The wrapper
 * is its own process group; pause() and resume() act on the whole tree, jobs included.
 */
export class ProcessShellTransport implements ShellTransport {
  readonly commandDir: string;
  readonly outputDir: string;
  private readonly rcfile: string;
  private child: ChildProcessWithoutNullStreams | null = null;

  constructor(private readonly options: ProcessShellTransportOptions) {
    const stateDir = options.stateDir ?? join(tmpdir(), 'dockhand');
    this.commandDir = join(stateDir, 'cmd');
    this.outputDir = join(stateDir, 'out');
    this.rcfile = join(stateDir, 'bashrc');
  }

  /** The pid of the TTY wrapper (also its process group id) while a shell runs, else null. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  async open({ startDir, onData, onExit }: OpenTerminalOptions): Promise<Terminal> {
    await mkdir(this.commandDir, { recursive: true });
    await mkdir(this.outputDir, { recursive: true });
    await writeFile(this.rcfile, bashrc());
    const env: NodeJS.ProcessEnv = { TERM: 'xterm-256color', ...this.options.env };
    delete env.DOCKHAND_START_DIR;
    if (startDir) env.DOCKHAND_START_DIR = startDir;
    const start = `stty cols ${COLUMNS} rows ${ROWS}; exec /bin/bash --rcfile "$1" -i`;
    const child = spawn('python3', ['-c', PTY_WRAPPER, '/bin/sh', '-c', start, 'sh', this.rcfile], {
      cwd: this.options.workingDir,
      env,
      detached: true,
    });
    try {
      await once(child, 'spawn');
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`The local shell needs python3 for its terminal: ${reason}`, { cause: error });
    }
    const pid = child.pid;
    if (pid === undefined) throw new Error('The local shell started without a pid.');
    let exited = false;
    this.child = child;
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    // Input written after the shell ended has nowhere to go; the end itself is reported by 'close'.
    child.stdin.on('error', () => undefined);
    child.once('close', (code, signal) => {
      exited = true;
      if (this.child === child) this.child = null;
      onExit(code ?? 128 + (signal ? constants.signals[signal] : 0));
    });
    return {
      write: (data) => {
        if (!exited) child.stdin.write(data);
      },
      close: () => {
        child.stdin.end();
        if (!exited) signalIfAlive(-pid, 'SIGTERM');
      },
    };
  }

  run(script: string): Promise<OneOffResult> {
    return new Promise((resolve, reject) => {
      execFile('/bin/sh', ['-c', script], { env: this.options.env }, (error, stdout, stderr) => {
        const code = error ? error.code : 0;
        if (typeof code !== 'number') reject(error ?? new Error('sh did not start'));
        else resolve({ exitCode: code, output: stdout + stderr });
      });
    });
  }

  writeFile(path: string, data: Buffer): Promise<void> {
    return files.write(path, data);
  }

  /** Stops the wrapper, bash and every job (SIGSTOP), parents first. */
  async pause(): Promise<void> {
    if (this.child?.pid) await pauseProcessTree(this.child.pid);
  }

  /** Continues everything pause() stopped. */
  async resume(): Promise<void> {
    if (this.child?.pid) await resumeProcessTree(this.child.pid);
  }
}
