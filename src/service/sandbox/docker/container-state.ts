import type { SandboxStatus } from '../../../shared/api/sandboxes';

/** Why a sandbox is MISSING: its container went away (or is going) without Dockhand deleting it. */
export const REMOVED_OUTSIDE_DOCKHAND = 'The container was removed outside Dockhand';

/** The part of `docker inspect` that decides a sandbox's status. */
export interface ContainerState {
  Status: string;
  OOMKilled?: boolean;
  ExitCode?: number;
  Error?: string;
}

/**
 * The sandbox status a container state stands for (api-contract §11). A running container is RUNNING only once the
 * readiness probe passes, so `running` maps to STARTING here and the caller probes.
 */
export function statusOf(state: ContainerState): { status: SandboxStatus; error: string | null } {
  switch (state.Status) {
    case 'created':
    case 'restarting':
    case 'running':
      return { status: 'STARTING', error: null };
    case 'paused':
      return { status: 'PAUSED', error: null };
    case 'exited':
      return state.OOMKilled
        ? { status: 'ERROR', error: 'The sandbox ran out of memory and was stopped' }
        : { status: 'PAUSED', error: null };
    case 'removing':
      return { status: 'MISSING', error: REMOVED_OUTSIDE_DOCKHAND };
    default:
      return {
        status: 'ERROR',
        error: `The container is ${state.Status}${state.Error ? `: ${state.Error}` : ''}`,
      };
  }
}
