import { Transform, type TransformCallback } from 'node:stream';
import type Docker from 'dockerode';
import type { PipedProcess } from '../link/sandbox-link';

/** How much of the process's stderr is kept for messages. */
const STDERR_TAIL = 2000;
const HEADER = 8;
const STDERR = 2;

/**
 * The stdout of an exec's multiplexed stream (8-byte headers: stream type, size), with backpressure: piped
 * into it, the exec's stream is read only as fast as stdout is consumed. Stderr goes to `stderr`.
 */
class StdoutDemux extends Transform {
  private pending: Buffer = Buffer.alloc(0);
  private remaining = 0;
  private type = 0;

  constructor(private readonly stderr: (chunk: Buffer) => void) {
    super({ readableHighWaterMark: 256 * 1024 });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let data = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = Buffer.alloc(0);
    while (data.length > 0) {
      if (this.remaining === 0) {
        if (data.length < HEADER) {
          this.pending = data;
          break;
        }
        this.type = data.readUInt8(0);
        this.remaining = data.readUInt32BE(4);
        data = data.subarray(HEADER);
        continue;
      }
      const piece = data.subarray(0, this.remaining);
      this.remaining -= piece.length;
      data = data.subarray(piece.length);
      if (this.type === STDERR) this.stderr(piece);
      else this.push(piece);
    }
    done();
  }
}

/**
 * `docker exec -i` of argv as root, with raw stdin and stdout: a binary channel between the service and a
 * long-lived process in the container over the Docker API alone. Ending stdin ends the process.
 */
export async function dockerPiped(container: Docker.Container, argv: string[]): Promise<PipedProcess> {
  const exec = await container.exec({
    Cmd: argv,
    User: 'root',
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
  });
  const stream = await exec.start({ hijack: true, stdin: true });
  let tail = '';
  const stdout = new StdoutDemux((chunk) => {
    tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL);
  });
  stream.pipe(stdout);
  stream.on('error', (error: Error) => stdout.destroy(error));
  return { stdin: stream, stdout, stderr: () => tail };
}
