import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';

/** How often a note about dropped log lines may reach stderr. */
const DROP_NOTE_INTERVAL_MS = 60_000;

/**
 * An append-only log file that never stops the service: a line that cannot be written (a full disk, a
 * removed folder) is dropped and counted, stderr hears about it at most once a minute, and the next line is
 * tried again. pino's own file destination retries a failed write forever while flushing at exit, which
 * wedges the process on a full disk.
 */
export class LogFile {
  private fd: number | null = null;
  private dropped = 0;
  private lastNote = 0;

  constructor(
    private readonly file: string,
    private readonly stderr: (text: string) => void = (text) => process.stderr.write(text),
  ) {}

  write(line: string): void {
    try {
      this.fd ??= openSync(this.file, 'a', 0o600);
      writeSync(this.fd, line);
    } catch (error) {
      this.dropped++;
      this.noteDropped(error);
    }
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private noteDropped(error: unknown): void {
    const now = Date.now();
    if (now - this.lastNote < DROP_NOTE_INTERVAL_MS) return;
    this.lastNote = now;
    const reason = (error as { code?: string } | null)?.code ?? String(error);
    this.stderr(`Dockhand: ${this.dropped} log line(s) not written to ${this.file} (${reason})\n`);
  }
}

/** Creates the folder of a log file (0700) and opens it lazily. */
export function openLogFile(file: string): LogFile {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  return new LogFile(file);
}
