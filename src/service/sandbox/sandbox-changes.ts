import type { Logger } from 'pino';
import type { SandboxInfo } from '../../shared/api/sandboxes';

/** A sandbox whose status changed; `deleted` once it is gone. */
export interface SandboxChangeEvent {
  sandbox: SandboxInfo;
  deleted: boolean;
}

/** Who listens to the sandboxes' status changes; one failing listener does not keep the others from hearing. */
export class SandboxChanges {
  private readonly listeners = new Set<(event: SandboxChangeEvent) => void>();

  constructor(private readonly logger: Logger) {}

  /** Calls `listener` on every status change; returns the function that unsubscribes. */
  on(listener: (event: SandboxChangeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: SandboxChangeEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.logger.error({ err: error }, 'A sandbox listener failed');
      }
    }
  }
}
