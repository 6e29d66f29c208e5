import type Docker from 'dockerode';
import { setTimeout as delay } from 'node:timers/promises';
import { PassThrough } from 'node:stream';

/**
 * How much of each output stream of a one-off command is kept. The rest is read and dropped, so a command
 * that prints without end (or `git cat-file` of a huge blob) cannot exhaust the service's memory.
 */
export const MAX_COMMAND_OUTPUT_BYTES = 8 * 1024 * 1024;

export interface ContainerCommandResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** Whether stdout or stderr went over MAX_COMMAND_OUTPUT_BYTES and holds only its first bytes. */
  truncated: boolean;
}

/** Runs a one-off command in a container, without a TTY, and waits for its end and exit code. */
export async function runInContainer(
  container: Docker.Container,
  cmd: string[],
  user = 'root',
): Promise<ContainerCommandResult> {
  const exec = await container.exec({ Cmd: cmd, User: user, AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({ hijack: true, stdin: false });
  const stdout = new OutputCollector();
  const stderr = new OutputCollector();
  container.modem.demuxStream(stream, stdout.sink, stderr.sink);
  await new Promise<void>((resolve, reject) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
    stream.once('error', reject);
  });
  return {
    exitCode: await execExitCode(exec),
    stdout: stdout.text(),
    stderr: stderr.text(),
    truncated: stdout.truncated || stderr.truncated,
  };
}

/** The exit code of an exec whose output has ended (the engine may report it a moment later). */
export async function execExitCode(exec: Docker.Exec): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const info = await exec.inspect();
    if (!info.Running && info.ExitCode !== null) return info.ExitCode;
    await delay(Math.min(5 * (attempt + 1), 50));
  }
  throw new Error(`Exec ${exec.id} did not report an exit code.`);
}

/** Keeps the first `limit` bytes written to its sink and drops (but keeps reading) the rest. */
export class OutputCollector {
  readonly sink = new PassThrough();
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private dropped = false;

  constructor(private readonly limit = MAX_COMMAND_OUTPUT_BYTES) {
    this.sink.on('data', (chunk: Buffer) => this.add(chunk));
  }

  get truncated(): boolean {
    return this.dropped;
  }

  /** Collects a stream to its end. */
  static async read(stream: NodeJS.ReadableStream, limit?: number): Promise<OutputCollector> {
    const collector = new OutputCollector(limit);
    for await (const chunk of stream) collector.add(Buffer.from(chunk));
    return collector;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }

  private add(chunk: Buffer): void {
    const room = this.limit - this.kept;
    if (chunk.length > room) this.dropped = true;
    if (room <= 0) return;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(part);
    this.kept += part.length;
  }
}
