import type { Logger } from 'pino';
import type { KeyedQueue } from './keyed-queue';
import { tooManyLiveSandboxes } from './sandbox-models';
import type { SandboxStore } from './sandbox-store';
import type { SandboxUsers } from './sandbox-users';

const ADMISSION = 'admission';

export interface LiveCapDeps {
  /** The queue of the sandboxes' operations, which admissions share. */
  queue: KeyedQueue;
  store: SandboxStore;
  users: SandboxUsers;
  maxLive: () => number;
  /** Pauses a sandbox; runs in the sandbox's own turn of the queue. */
  pauseNow: (sandboxId: string) => Promise<void>;
  logger: Logger;
}

/** The live-sandbox cap: a sandbox becomes live only under it, pausing idle ones to make room. */
export class LiveCap {
  constructor(private readonly deps: LiveCapDeps) {}

  /**
   * Runs `admit` (which makes a sandbox live) when the live count is under the cap, pausing least recently
   * used idle RUNNING sandboxes first when it is not. One admission at a time, so the count stays true.
   */
  admit<T>(resuming: string | null, admit: () => T): Promise<T> {
    const { queue, store, users, logger } = this.deps;
    return queue.run(ADMISSION, async () => {
      const max = this.deps.maxLive();
      const tried = new Set<string>(resuming ? [resuming] : []);
      while (store.countLive() >= max) {
        const victim = store
          .runningByLastUse()
          .find((record) => !tried.has(record.id) && users.isIdle(record.id));
        if (!victim) throw tooManyLiveSandboxes(max);
        tried.add(victim.id);
        logger.info({ sandbox: victim.id, max }, 'Pausing the least recently used sandbox to make room');
        await queue.run(victim.id, () => this.deps.pauseNow(victim.id));
      }
      return admit();
    });
  }
}
