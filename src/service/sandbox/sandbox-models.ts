import type { ExposedUrl, SandboxStatus } from '../../shared/api/sandboxes';
import { HttpError, httpError } from '../http/errors';
import { ValidationFailed, type Location } from '../http/validation';

/**
 * The sandboxes' vocabulary: what the service, the providers and the routes say to each other. It imports
 * nothing of this folder, so every other file of it can import it.
 */

export type { ExposedUrl, SandboxStatus };

export type SandboxProviderKind = 'docker' | 'process';

/** What a sandbox is made from: an image and how to run it. */
export interface SandboxSpec {
  /** The image reference. */
  id: string;
  command: string[];
  initialEnv: Record<string, string>;
  workingDir: string;
  title: string;
  description: string;
}

/** A sandbox as the `sandboxes` table holds it. */
export interface SandboxRecord {
  id: string;
  provider: SandboxProviderKind;
  specId: string;
  status: SandboxStatus;
  error: string | null;
  /** Set once the provider created the container (Docker) or folder (process). */
  containerId: string | null;
  exposedUrls: ExposedUrl[];
  createdAt: string;
  lastUsedAt: string;
}

export type SandboxChange = Partial<Pick<SandboxRecord, 'status' | 'error' | 'containerId' | 'exposedUrls'>>;

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

/**
 * What the sandboxes read of the user's settings, with the defaults applied, each time they need it (the
 * settings may change). Handed in by the composition root: this folder does not know the settings service.
 */
export interface SandboxSettings {
  /** `sandbox_provider`: the provider of new sandboxes; null for the default (Docker). */
  provider: SandboxProviderKind | null;
  /** `sandbox_warm_pool`. */
  warmPool: number;
  /** `max_live_sandboxes`. */
  maxLive: number;
  /** `sandbox_runtime_container_image`, or null. */
  runtimeImage: string | null;
  /** `sandbox_base_container_image`, or null. */
  baseImage: string | null;
  /** `sandbox_network`: the network of new Docker sandboxes (`gated`, `bridge` or `host`). */
  network: 'gated' | 'bridge' | 'host';
}

/** A failure to show users as is (the sandbox's `error`), e.g. a pull that failed, with its fix. */
export class SandboxFailure extends Error {}

/** A command a sandbox was asked to run as a server (an MCP stdio server) is not there; the message says where. */
export class CommandNotFound extends Error {}

export function sandboxNotFound(id: string): HttpError {
  return httpError(404, `Sandbox ${id} not found`);
}

export function tooManyLiveSandboxes(max: number): HttpError {
  return httpError(409, `Too many live sandboxes (${max}). Pause or delete one and retry.`);
}

/** 409 for an operation a sandbox in ERROR or MISSING cannot take (only delete is allowed). */
export function sandboxBroken(id: string, status: SandboxStatus, error: string | null): HttpError {
  const why = error ? `: ${error}` : '';
  return httpError(409, `Sandbox ${id} is ${status}${why}. Only delete is allowed.`);
}

export function sandboxNotRunning(id: string, status: SandboxStatus): HttpError {
  return httpError(409, `Sandbox ${id} is not running (${status})`);
}

/** 422 `value_error` for a `sandbox_spec_id` that names no spec. */
export function unknownSpec(id: string, location: Location): ValidationFailed {
  return new ValidationFailed([
    {
      type: 'value_error',
      loc: [location, 'sandbox_spec_id'],
      msg: `Value error, Unknown sandbox spec ${id}`,
      input: id,
    },
  ]);
}
