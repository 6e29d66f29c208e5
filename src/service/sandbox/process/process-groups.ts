/** Signals Dockhand sends to a process sandbox's groups. */
type GroupSignal = 'SIGSTOP' | 'SIGCONT' | 'SIGKILL';

/**
 * The process groups (shells and what they started) of each process sandbox. Pause stops every group with
 * SIGSTOP, resume continues it, delete kills it; a group adopted while its sandbox is paused is stopped at once.
 */
export class ProcessGroups {
  private readonly groups = new Map<string, Set<number>>();
  private readonly paused = new Set<string>();

  /** Puts process group `pgid` under the sandbox's control; returns the function that releases it. */
  adopt(sandboxId: string, pgid: number): () => void {
    const groups = this.groups.get(sandboxId) ?? new Set<number>();
    groups.add(pgid);
    this.groups.set(sandboxId, groups);
    if (this.paused.has(sandboxId)) this.signal(sandboxId, pgid, 'SIGSTOP');
    return () => {
      groups.delete(pgid);
      if (groups.size === 0 && this.groups.get(sandboxId) === groups) this.groups.delete(sandboxId);
    };
  }

  /** The groups of a sandbox that are still alive. */
  list(sandboxId: string): number[] {
    return [...(this.groups.get(sandboxId) ?? [])];
  }

  stop(sandboxId: string): void {
    this.paused.add(sandboxId);
    this.signalAll(sandboxId, 'SIGSTOP');
  }

  resume(sandboxId: string): void {
    this.paused.delete(sandboxId);
    this.signalAll(sandboxId, 'SIGCONT');
  }

  kill(sandboxId: string): void {
    this.signalAll(sandboxId, 'SIGKILL');
    this.paused.delete(sandboxId);
    this.groups.delete(sandboxId);
  }

  private signalAll(sandboxId: string, signal: GroupSignal): void {
    for (const pgid of this.list(sandboxId)) this.signal(sandboxId, pgid, signal);
  }

  private signal(sandboxId: string, pgid: number, signal: GroupSignal): void {
    try {
      process.kill(-pgid, signal);
    } catch (error) {
      // The group has exited: forget it.
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') this.groups.get(sandboxId)?.delete(pgid);
      else throw error;
    }
  }
}
