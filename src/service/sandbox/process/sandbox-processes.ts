/** Something running for a process sandbox (a shell and its jobs) that pause, resume and delete act on. */
export interface SandboxProcess {
  pause(): Promise<void>;
  resume(): Promise<void>;
  kill(): Promise<void>;
}

/**
 * The processes of each process sandbox. Pause stops them all, resume continues them, delete kills them;
 * one adopted while its sandbox is paused is stopped at once.
 */
export class SandboxProcesses {
  private readonly members = new Map<string, Set<SandboxProcess>>();
  private readonly paused = new Set<string>();

  /** Puts `member` under the sandbox's control; returns the function that releases it. */
  adopt(sandboxId: string, member: SandboxProcess): () => void {
    const members = this.members.get(sandboxId) ?? new Set<SandboxProcess>();
    members.add(member);
    this.members.set(sandboxId, members);
    if (this.paused.has(sandboxId)) void member.pause();
    return () => {
      members.delete(member);
      if (members.size === 0 && this.members.get(sandboxId) === members) this.members.delete(sandboxId);
    };
  }

  async pause(sandboxId: string): Promise<void> {
    this.paused.add(sandboxId);
    await Promise.all(this.list(sandboxId).map((member) => member.pause()));
  }

  async resume(sandboxId: string): Promise<void> {
    this.paused.delete(sandboxId);
    await Promise.all(this.list(sandboxId).map((member) => member.resume()));
  }

  async kill(sandboxId: string): Promise<void> {
    const members = this.list(sandboxId);
    this.members.delete(sandboxId);
    this.paused.delete(sandboxId);
    await Promise.all(members.map((member) => member.kill()));
  }

  private list(sandboxId: string): SandboxProcess[] {
    return [...(this.members.get(sandboxId) ?? [])];
  }
}
