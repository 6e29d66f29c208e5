import type { MainLog } from './main-log';

export interface LogEntry {
  level: 'info' | 'warn' | 'error';
  fields: object;
  message: string;
}

/** A MainLog that keeps what it was told, for tests. */
export function recordingLog(): MainLog & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const at = (level: LogEntry['level']) => (fields: object, message: string) => {
    entries.push({ level, fields, message });
  };
  return { entries, info: at('info'), warn: at('warn'), error: at('error') };
}

/** A cancellable event like Electron's, recording whether it was prevented. */
export function preventable(): { preventDefault(): void; prevented: boolean } {
  const event = {
    prevented: false,
    preventDefault() {
      event.prevented = true;
    },
  };
  return event;
}
