import { PassThrough } from 'node:stream';
import { MAX_COMMAND_OUTPUT_BYTES } from './sandbox-workspace';

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

/** A command's result from its two collected streams. */
export function outputOf(stdout: OutputCollector, stderr: OutputCollector) {
  return { stdout: stdout.text(), stderr: stderr.text(), truncated: stdout.truncated || stderr.truncated };
}
