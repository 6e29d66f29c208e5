import type { ObservedState, SandboxProviderKind, SandboxRecord, SandboxSpec } from './sandbox-models';
import type { SandboxWorkspace } from './sandbox-workspace';
import type { FileSurvey } from './files/sandbox-files';

export interface CreateRequest {
  id: string;
  spec: SandboxSpec;
  /** Aborted when the sandbox is deleted while it is being created. */
  signal: AbortSignal;
  /** Called as soon as the container (or folder) exists, so a restart can find it. */
  onCreated(containerId: string): void;
  /** The sandbox's container was made ahead of time by the warm pool (Docker only): claim it. */
  pooled?: boolean;
}

/**
 * What runs sandboxes: Docker containers, or host processes in a folder. The sandbox service keeps the
 * records, limits and state machine; a provider only acts on one sandbox at a time and reports what it sees.
 * Every operation is idempotent: pausing a paused sandbox or removing a removed one succeeds.
 */
export interface SandboxProvider {
  readonly kind: SandboxProviderKind;
  /** False when commands run unsandboxed on the host. */
  readonly isolated: boolean;
  /** Throws an HttpError (503) when the provider cannot be used now. */
  ensureAvailable(): Promise<void>;
  /** Creates and starts the sandbox; resolves once it is ready (RUNNING), or throws. */
  create(request: CreateRequest): Promise<ObservedState>;
  pause(record: SandboxRecord): Promise<ObservedState>;
  /** Unpauses (or starts) the sandbox; resolves once it is ready again. */
  resume(record: SandboxRecord): Promise<ObservedState>;
  /** Stops the sandbox and removes it with its workspace. */
  remove(record: SandboxRecord): Promise<void>;
  /** The sandbox's state as the backend reports it (for reconciliation and outside changes). */
  observe(record: SandboxRecord): Promise<ObservedState>;
  /**
   * Reports changes made outside Dockhand: `changed(id)` for one sandbox, `changed(null)` when every
   * sandbox must be observed again (the backend was lost or came back).
   */
  watch(changed: (sandboxId: string | null) => void): void;
  /**
   * What the sandbox's first probe surveyed of its new workspace (see `ReadAheadRoots`), handed out once;
   * null when nothing was read ahead or it was taken.
   */
  takeReadAhead(id: string): FileSurvey | null;
  /** The RUNNING sandbox's workspace, for one user (a conversation, a route): see SandboxWorkspace. */
  workspace(record: SandboxRecord): Promise<SandboxWorkspace>;
  close(): Promise<void>;
}
