import type { InvokeEvent, IpcMainLike } from '../../src/main/connection-ipc';
import type { MainLog } from '../../src/main/main-log';

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

/** ipcMain's invoke handlers, called the way a page's `ipcRenderer.invoke` would reach them. */
export class FakeIpcMain implements IpcMainLike {
  readonly handlers = new Map<string, (event: InvokeEvent) => unknown>();

  handle(channel: string, listener: (event: InvokeEvent) => unknown): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, listener);
  }

  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }

  async invoke(channel: string, from: InvokeEvent): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler(from);
  }
}
