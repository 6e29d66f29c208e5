import type Docker from 'dockerode';
import type { ExposedUrl, SandboxStatus } from '../../shared/api/sandboxes';
import type { FileSurvey } from './files/file-survey';
import type { SandboxProcess } from './process/sandbox-processes';
import type { SandboxRecord } from './sandbox-store';
import type { SandboxSpec } from './sandbox-specs';

export type SandboxProviderKind = 'docker' | 'process';

/** What a provider sees of one sandbox right now. */
export interface ObservedState {
  status: SandboxStatus;
  /** Why it is in ERROR or MISSING, else null. */
  error: string | null;
  /** The app ports as reachable from this machine (kept only while RUNNING). */
  exposedUrls: ExposedUrl[];
}

/** The ports apps inside the sandbox should listen on (exported to commands as APP_PORT_1/2). */
export interface AppPorts {
  WORKER_1: number;
  WORKER_2: number;
}

/** How to run commands in a Docker sandbox: `docker exec` in `container`. */
export interface DockerTarget {
  kind: 'docker';
  sandboxId: string;
  docker: Docker;
  /** The container name, `dockhand-<sandbox id>`. */
  container: string;
  /** The user the container runs as (the image's non-root user), or null for root. */
  user: string | null;
  /** The volume's mount point. */
  workspaceDir: string;
  /** The spec's working directory, e.g. `/workspace/project`. */
  workingDir: string;
  /** The container's environment (the image's and the spec's `initial_env`); execs inherit it. */
  env: Record<string, string>;
  appPorts: AppPorts;
}

/** How to run commands for a process sandbox: on the host, in its folder, unsandboxed. */
export interface ProcessTarget {
  kind: 'process';
  sandboxId: string;
  /** `<dataDir>/workspaces/<id>`, what Docker sandboxes call /workspace. */
  workspaceDir: string;
  /** `<workspaceDir>/project`. */
  workingDir: string;
  env: Record<string, string>;
  appPorts: AppPorts;
  /**
   * Puts a process of the sandbox (its shell, with the jobs it started) under the sandbox's control: pause
   * stops it, resume continues it, delete kills it. `processGroup(pgid)` wraps a plain process group.
   * Returns the function that releases it.
   */
  adopt(process: SandboxProcess): () => void;
}

export type SandboxTarget = DockerTarget | ProcessTarget;

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

/** A failure to show users as is (the sandbox's `error`), e.g. a pull that failed, with its fix. */
export class SandboxFailure extends Error {}

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
  target(record: SandboxRecord): Promise<SandboxTarget>;
  close(): Promise<void>;
}
