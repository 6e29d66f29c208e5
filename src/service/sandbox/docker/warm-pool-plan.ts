import type { SandboxSpec } from '../sandbox-models';

/** A paused container of the warm pool, ready to become a sandbox. */
export interface PooledContainer {
  /** The sandbox id it was made for (its container is `dockhand-<id>`). */
  id: string;
  containerId: string;
  /** `specKey` of the spec it was made from. */
  key: string;
  /** The image it runs (a rebuilt or re-pulled tag has another id). */
  imageId: string;
}

/** What the pool's containers must be made from now: the default spec and its image, or null when none can be. */
export interface PoolTarget {
  key: string;
  imageId: string;
}

export interface PoolPlan {
  /** Containers to remove: made from another spec or image, or beyond the size. */
  discard: PooledContainer[];
  /** How many containers to make. */
  create: number;
}

/** Everything a sandbox is created from: two specs with the same key make the same container. */
export function specKey(spec: SandboxSpec): string {
  return JSON.stringify([spec.id, spec.command, spec.initialEnv, spec.workingDir]);
}

export function matches(container: PooledContainer, target: PoolTarget | null): boolean {
  return target !== null && container.key === target.key && container.imageId === target.imageId;
}

/**
 * What the pool should do next: keep up to `size` ready containers of `target`, remove the rest, and say how
 * many to make. With no target (the image is absent, Docker is gone) every container goes and none is made.
 */
export function planPool(options: {
  size: number;
  target: PoolTarget | null;
  ready: PooledContainer[];
}): PoolPlan {
  const { size, target, ready } = options;
  const kept = ready.filter((container) => matches(container, target)).slice(0, Math.max(0, size));
  return {
    discard: ready.filter((container) => !kept.includes(container)),
    create: target ? Math.max(0, size - kept.length) : 0,
  };
}
