import type { Logger } from 'pino';
import type { SandboxRecord } from './sandbox-models';

export interface IdlePauseDeps {
  /** Seconds unused after which an idle sandbox is paused; 0 = never. */
  idleSeconds: number;
  /** RUNNING sandboxes, least recently used first. */
  runningByLastUse: () => SandboxRecord[];
  /** Whether the sandbox's conversations are all idle. */
  isIdle: (sandboxId: string) => boolean;
  pause: (sandboxId: string) => Promise<void>;
  logger: Logger;
}

/** Pauses the RUNNING sandboxes unused for the idle time whose conversations are idle, checked at least every minute. */
export class IdlePause {
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: IdlePauseDeps) {}

  start(): void {
    const idle = this.deps.idleSeconds;
    if (idle <= 0) return;
    this.timer = setInterval(() => void this.pauseIdle(), Math.min(60, idle) * 1000);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private async pauseIdle(): Promise<void> {
    const cutoff = new Date(Date.now() - this.deps.idleSeconds * 1000).toISOString();
    for (const record of this.deps.runningByLastUse()) {
      if (record.lastUsedAt >= cutoff || !this.deps.isIdle(record.id)) continue;
      this.deps.logger.info({ sandbox: record.id }, 'Pausing an idle sandbox');
      await this.deps.pause(record.id).catch((error: unknown) => {
        this.deps.logger.warn({ sandbox: record.id, err: error }, 'Could not pause the idle sandbox');
      });
    }
  }
}
