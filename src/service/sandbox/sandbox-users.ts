/** The conversations' side of a sandbox: whoever runs conversations answers for them. */
export interface SandboxUsers {
  /** Whether every conversation on the sandbox is idle, so it may be paused to make room or when idle. */
  isIdle(sandboxId: string): boolean;
  /** Stops the loops of the sandbox's conversations before it is paused or deleted. */
  release(sandboxId: string, reason: 'pause' | 'delete'): Promise<void>;
  /** The sandbox is RUNNING again after a resume: the conversations its pause stopped start again. */
  resumed(sandboxId: string): void;
}
