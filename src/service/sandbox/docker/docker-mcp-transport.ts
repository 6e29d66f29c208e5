import { randomBytes } from 'node:crypto';
import { PassThrough, type Duplex } from 'node:stream';
import type Docker from 'dockerode';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { dockerExec } from './docker-exec';

export interface DockerExecTransportOptions {
  command: string;
  args: string[];
  user: string;
  workingDir: string;
  env: Record<string, string>;
  /** A folder appended to the image's PATH (Dockhand's bundled runtime). */
  pathSuffix?: string;
}

/** How much of the server's stderr is kept for error messages. */
const STDERR_TAIL = 2000;
const PID_DIR = '/tmp/dockhand';

/**
 * An MCP stdio transport to a server process inside a Docker sandbox: `docker exec -i` without a TTY,
 * newline-delimited JSON-RPC over its stdin and (demultiplexed) stdout. Its stderr is kept, not parsed.
 * The process writes its pid to a file first, so closing the transport can end it even if it ignores EOF.
 */
export class DockerExecTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private stream: Duplex | null = null;
  private readonly buffer = new ReadBuffer();
  private stderrTail = '';
  private closed = false;
  private readonly pidFile = `${PID_DIR}/mcp-${randomBytes(6).toString('hex')}.pid`;

  constructor(
    private readonly container: Docker.Container,
    private readonly options: DockerExecTransportOptions,
  ) {}

  /** The end of what the server wrote to stderr (for "could not start" messages). */
  get stderr(): string {
    return this.stderrTail;
  }

  async start(): Promise<void> {
    const { command, args, user, workingDir, env, pathSuffix } = this.options;
    const path = pathSuffix ? `PATH="$PATH:${pathSuffix}"; ` : '';
    const exec = await this.container.exec({
      Cmd: [
        'sh',
        '-c',
        `${path}mkdir -p ${PID_DIR} 2>/dev/null; echo $$ > ${this.pidFile}; exec "$@"`,
        'sh',
        command,
        ...args,
      ],
      User: user,
      WorkingDir: workingDir,
      Env: Object.entries(env).map(([k, v]) => `${k}=${v}`),
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
    });
    const stream = await exec.start({ hijack: true, stdin: true });
    this.stream = stream;
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    this.container.modem.demuxStream(stream, stdout, stderr);
    stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    stderr.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    stream.on('error', (error: Error) => this.onerror?.(error));
    stream.once('end', () => this.ended());
    stream.once('close', () => this.ended());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stream = this.stream;
    if (!stream || this.closed) throw new Error('The MCP server process has ended.');
    await new Promise<void>((resolve, reject) =>
      stream.write(serializeMessage(message), (error) => (error ? reject(error) : resolve())),
    );
  }

  async close(): Promise<void> {
    const stream = this.stream;
    this.stream = null;
    stream?.end();
    stream?.destroy();
    this.ended();
    // A server that ignores the end of its input is ended by its pid.
    await dockerExec(
      this.container,
      ['sh', '-c', `kill -TERM "$(cat ${this.pidFile})" 2>/dev/null; rm -f ${this.pidFile}`],
      { user: this.options.user },
    ).catch(() => undefined);
  }

  private receive(chunk: Buffer): void {
    if (this.closed) return;
    try {
      this.buffer.append(chunk);
    } catch (error) {
      // Over the read buffer's cap (a line without end): what follows cannot be framed, so the server goes.
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      if (!message) return;
      this.onmessage?.(message);
    }
  }

  private ended(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.onclose?.();
  }
}
