import type Docker from 'dockerode';
import type { Duplex } from 'node:stream';
import { dockerExec, execExitCode } from '../docker/docker-exec';
import { DockerSandboxFiles } from '../files/docker-files';
import type { SandboxFiles } from '../files/sandbox-files';
import { bashrc } from './prompt-marker';
import type { OneOffResult, OpenTerminalOptions, ShellTransport, Terminal } from './transport';

export interface DockerShellTransportOptions {
  /** The user bash runs as ('dockhand'). */
  user?: string;
  /** Where bash starts ('/workspace/project'). */
  workingDir?: string;
  /** Extra environment for bash (TERM defaults to xterm-256color). */
  env?: Record<string, string>;
  /** Used to save full outputs; files as `user` on the same container by default. */
  files?: SandboxFiles;
}

const RCFILE = '/opt/dockhand/bashrc';
const STATE_DIR = '/tmp/dockhand';
const COLUMNS = 1000;
const ROWS = 50;

// Run as root: writes the rcfile ($1) and makes the command and output folders writable by any user.
const PREPARE_SCRIPT = `set -e
mkdir -p /opt/dockhand ${STATE_DIR}/cmd ${STATE_DIR}/out
chmod 1777 ${STATE_DIR} ${STATE_DIR}/cmd ${STATE_DIR}/out
printf '%s' "$1" > ${RCFILE}
chmod 0644 ${RCFILE}`;

/** The shell as a TTY `docker exec` of bash in a running container. */
export class DockerShellTransport implements ShellTransport {
  readonly commandDir = `${STATE_DIR}/cmd`;
  readonly outputDir = `${STATE_DIR}/out`;
  private readonly user: string;
  private readonly workingDir: string;
  private readonly env: Record<string, string>;
  private readonly files: SandboxFiles;

  constructor(
    private readonly container: Docker.Container,
    options: DockerShellTransportOptions = {},
  ) {
    this.user = options.user ?? 'dockhand';
    this.workingDir = options.workingDir ?? '/workspace/project';
    this.env = { TERM: 'xterm-256color', ...options.env };
    this.files = options.files ?? new DockerSandboxFiles(container, { user: this.user });
  }

  async open({ startDir, onData, onExit }: OpenTerminalOptions): Promise<Terminal> {
    const prepared = await dockerExec(this.container, ['sh', '-c', PREPARE_SCRIPT, 'sh', bashrc()]);
    if (prepared.exitCode !== 0) {
      throw new Error(`Preparing the shell failed (exit ${prepared.exitCode}): ${prepared.stderr.trim()}`);
    }
    const env = { ...this.env, ...(startDir ? { DOCKHAND_START_DIR: startDir } : {}) };
    const exec = await this.container.exec({
      Cmd: ['/bin/bash', '--rcfile', RCFILE, '-i'],
      Tty: true,
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      User: this.user,
      WorkingDir: this.workingDir,
      Env: Object.entries(env).map(([name, value]) => `${name}=${value}`),
    });
    const stream: Duplex = await exec.start({ hijack: true, stdin: true, Tty: true });
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      // Without an exit code from the engine, -1 still tells the session that the shell is gone.
      execExitCode(exec).then(onExit, () => onExit(-1));
    };
    stream.on('data', onData);
    stream.once('end', end);
    stream.once('close', end);
    stream.once('error', end);
    // A shell that already ended is reported through `end`; resizing it would only fail.
    await exec.resize({ h: ROWS, w: COLUMNS }).catch(() => undefined);
    return {
      write: (data) => {
        if (!ended) stream.write(data);
      },
      close: () => stream.destroy(),
    };
  }

  async run(script: string): Promise<OneOffResult> {
    const result = await dockerExec(this.container, ['sh', '-c', script]);
    return { exitCode: result.exitCode, output: result.stdout + result.stderr };
  }

  writeFile(path: string, data: Buffer): Promise<void> {
    return this.files.write(path, data);
  }
}
