import type { WarmPoolState } from '../../shared/api/server';
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
}

/** A sandbox its provider made ahead of time, claimed for a new sandbox: the record takes its id and container. */
export interface PreparedSandbox {
  id: string;
  containerId: string;
}

/**
 * Sandboxes a provider keeps ready ahead of time (Docker's warm pool). The sandbox service claims one for a
 * new sandbox, before its record exists, and reports the pool; what it holds and when it refills is the
 * provider's. `create` with a claimed id only has to wake it.
 */
export interface SandboxPool {
  /** Clears what a previous run left, then fills (in the background). */
  start(): Promise<void>;
  /** Takes one made from `spec` (two claims never get the same one), or null. */
  claim(spec: SandboxSpec): Promise<PreparedSandbox | null>;
  /** Returns a claim whose sandbox could not be admitted. */
  giveBack(prepared: PreparedSandbox): void;
  /** Follows the settings (size, images) after they changed. */
  refill(): void;
  /** For /server_info and the Sandboxes page. */
  state(): WarmPoolState;
  /** Removes what it holds; nothing is made afterwards. */
  close(): Promise<void>;
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
  /** Its warm pool, where it keeps one (Docker). */
  readonly pool?: SandboxPool;
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
