import { closeSync, fchmodSync, fstatSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE, privateFolder } from './data-dir';

/** How often a note about dropped log lines may reach stderr. */
const DROP_NOTE_INTERVAL_MS = 60_000;

export interface LogRotation {
  /** A file that would grow past this many bytes is renamed `<file>.1` first (older ones shift up). */
  maxBytes: number;
  /** How many renamed files are kept (`<file>.1` … `<file>.<keep>`); the oldest is removed. */
  keep: number;
}

export const DEFAULT_ROTATION: LogRotation = { maxBytes: 10 * 1024 * 1024, keep: 3 };

/**
 * An append-only log file that never stops the service: a line that cannot be written (a full disk, a
 * removed folder) is dropped and counted, stderr hears about it at most once a minute, and the next line is
 * tried again. pino's own file destination retries a failed write forever while flushing at exit, which
 * wedges the process on a full disk. The file rotates by size, so logs never fill the disk on their own.
 */
export class LogFile {
  private fd: number | null = null;
  private size = 0;
  private dropped = 0;
  private lastNote = 0;
  private pending: string[] = [];

  constructor(
    private readonly file: string,
    private readonly stderr: (text: string) => void = (text) => process.stderr.write(text),
    private readonly rotation: LogRotation = DEFAULT_ROTATION,
  ) {}

  /** Queues `line`; queued lines are written together once the current turn of the event loop ends. */
  write(line: string): void {
    this.pending.push(line);
    if (this.pending.length === 1) setImmediate(() => this.flush());
  }

  /**
   * Writes the queued lines, as few writes as rotation allows: one write per request line cost the service
   * a fifth of its throughput under load.
   */
  flush(): void {
    const lines = this.pending;
    this.pending = [];
    let batch = '';
    let batchBytes = 0;
    for (const line of lines) {
      const bytes = Buffer.byteLength(line);
      try {
        this.open();
        // A line longer than the limit still goes into an empty file.
        if (this.size + batchBytes > 0 && this.size + batchBytes + bytes > this.rotation.maxBytes) {
          this.append(batch, batchBytes);
          [batch, batchBytes] = ['', 0];
          if (this.size > 0) this.rotate();
        }
        batch += line;
        batchBytes += bytes;
      } catch (error) {
        this.dropped++;
        this.noteDropped(error);
      }
    }
    this.append(batch, batchBytes);
  }

  close(): void {
    this.flush();
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private append(text: string, bytes: number): void {
    if (!text) return;
    try {
      writeSync(this.open(), text);
      this.size += bytes;
    } catch (error) {
      this.dropped += text.split('\n').length - 1 || 1;
      this.noteDropped(error);
    }
  }

  /** The open descriptor (opened, and its size read, on first use). */
  private open(): number {
    if (this.fd === null) {
      this.fd = openSync(this.file, 'a', PRIVATE_FILE_MODE);
      // A log an older version wrote may be 0644.
      fchmodSync(this.fd, PRIVATE_FILE_MODE);
      this.size = fstatSync(this.fd).size;
    }
    return this.fd;
  }

  /** `<file>` becomes `<file>.1`, each `<file>.<n>` becomes `<file>.<n+1>`, past `keep` removed. */
  private rotate(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    const { keep } = this.rotation;
    rmSync(`${this.file}.${keep}`, { force: true });
    for (let n = keep - 1; n >= 1; n--) {
      try {
        renameSync(`${this.file}.${n}`, `${this.file}.${n + 1}`);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    renameSync(this.file, `${this.file}.1`);
  }

  private noteDropped(error: unknown): void {
    const now = Date.now();
    if (now - this.lastNote < DROP_NOTE_INTERVAL_MS) return;
    this.lastNote = now;
    const reason = (error as { code?: string } | null)?.code ?? String(error);
    this.stderr(`Dockhand: ${this.dropped} log line(s) not written to ${this.file} (${reason})\n`);
  }
}

/** Creates the folder of a log file (0700, also when it exists) and opens it lazily. */
export function openLogFile(file: string): LogFile {
  privateFolder(path.dirname(file));
  return new LogFile(file);
}
