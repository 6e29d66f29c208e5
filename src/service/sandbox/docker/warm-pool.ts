import type { Logger } from 'pino';
import type { WarmPoolState } from '../../../shared/api/server';
import { newSandboxId } from '../sandbox-id';
import type { SandboxSpec } from '../sandbox-models';
import type { PreparedSandbox, SandboxPool } from '../sandbox-provider';
import { dockerErrorText } from './docker-errors';
import { matches, planPool, type PooledContainer, type PoolTarget, specKey } from './warm-pool-plan';

/** A claim starts its conversation first; the refill waits this long so it does not compete with it. */
const REFILL_DELAY_MS = 2000;
/** How often the pool looks again at the default spec's image (a rebuilt or re-pulled tag changes its id). */
const CHECK_INTERVAL_MS = 60_000;

/** What the pool asks of the Docker provider that owns it. */
export interface PoolContainers {
  createPooled(
    id: string,
    spec: SandboxSpec,
    signal: AbortSignal,
  ): Promise<{ containerId: string; imageId: string }>;
  removePooled(id: string): Promise<void>;
  pooledIds(): Promise<string[]>;
  imageId(image: string): Promise<string | null>;
}

export interface WarmPoolDeps {
  provider: PoolContainers;
  /** How many containers to keep ready now (0 when the pool is off). */
  size(): number;
  /** The spec new sandboxes are made from. */
  spec(): SandboxSpec;
  /** Whether a sandbox record owns the id (a claimed container keeps its pool label: labels cannot change). */
  claimed(id: string): boolean;
  logger: Logger;
}

/**
 * Containers of the default sandbox spec made ahead of time and paused, so a new sandbox only has to be
 * unpaused. A claim takes one synchronously (two claims never get the same one) and the pool refills in the
 * background, one container at a time. Pooled containers have no sandbox record, so they never count against
 * the live-sandbox cap, and hold nothing of a conversation: its secrets go per exec once it claims one.
 * Containers of another spec or image are removed; unclaimed ones left by a crash are swept at start; the
 * whole pool is removed at close.
 */
export class WarmPool implements SandboxPool {
  private ready: PooledContainer[] = [];
  /** Claimed containers whose sandbox is not created yet (`takeClaim` hands each to the provider's create). */
  private readonly taken = new Map<string, PooledContainer>();
  private filling: AbortController | null = null;
  private error: string | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private timers = new Set<NodeJS.Timeout>();
  private checkTimer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: WarmPoolDeps) {}

  /** Removes unclaimed pool containers a previous run left, then fills the pool (in the background). */
  async start(): Promise<void> {
    await this.sweep();
    this.refill();
    this.checkTimer = setInterval(() => this.refill(), CHECK_INTERVAL_MS);
    this.checkTimer.unref();
  }

  /** For /server_info and the Sandboxes page. */
  state(): WarmPoolState {
    const size = this.deps.size();
    return {
      size,
      ready: this.ready.length,
      filling: this.filling ? 1 : 0,
      spec: size > 0 ? this.deps.spec().id : null,
      error: this.error,
    };
  }

  /**
   * Takes a ready container made from `spec` and its current image, or null (then the sandbox is made the
   * usual way). A container whose image has changed since is removed instead.
   */
  async claim(spec: SandboxSpec): Promise<PooledContainer | null> {
    const key = specKey(spec);
    const index = this.ready.findIndex((container) => container.key === key);
    const [taken] = index < 0 ? [] : this.ready.splice(index, 1);
    if (!taken) {
      this.refill();
      return null;
    }
    const imageId = await this.deps.provider.imageId(spec.id).catch(() => null);
    if (!matches(taken, imageId ? { key, imageId } : null)) {
      this.discard(taken);
      this.refill();
      return null;
    }
    this.refillSoon();
    this.taken.set(taken.id, taken);
    return taken;
  }

  /** Returns an unused claim (its sandbox could not be admitted). */
  giveBack(prepared: PreparedSandbox): void {
    const container = this.taken.get(prepared.id);
    if (!container) return;
    this.taken.delete(prepared.id);
    if (this.closed) this.discard(container);
    else this.ready.push(container);
  }

  /** Whether `id` was claimed for the sandbox being created now; true once, for the provider's create. */
  takeClaim(id: string): boolean {
    return this.taken.delete(id);
  }

  /** Brings the pool to its size for the current spec and image (after a claim or a settings change). */
  refill(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.fill()
      .catch((error: unknown) => this.deps.logger.error({ err: error }, 'The warm pool failed'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.refill();
        }
      });
  }

  /** Removes every pooled container; nothing is made afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.checkTimer) clearInterval(this.checkTimer);
    for (const timer of this.timers) clearTimeout(timer);
    this.filling?.abort();
    await this.running;
    const removing = this.ready.map((container) => this.remove(container.id));
    this.ready = [];
    await Promise.all(removing);
  }

  private refillSoon(): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.refill();
    }, REFILL_DELAY_MS);
    timer.unref();
    this.timers.add(timer);
  }

  private async fill(): Promise<void> {
    while (!this.closed) {
      const size = this.deps.size();
      const spec = this.deps.spec();
      if (size === 0) this.error = null;
      const target = size > 0 ? await this.target(spec) : null;
      const plan = planPool({ size, target, ready: this.ready });
      for (const container of plan.discard) this.discard(container);
      if (plan.create === 0 || !target) return;
      if (!(await this.make(spec, target))) return;
    }
  }

  /** The default spec with its image id, or null when the image is absent (the pool never pulls). */
  private async target(spec: SandboxSpec): Promise<PoolTarget | null> {
    try {
      const imageId = await this.deps.provider.imageId(spec.id);
      this.error = imageId ? null : `Waiting for the image ${spec.id} (it is pulled by the first sandbox)`;
      return imageId ? { key: specKey(spec), imageId } : null;
    } catch (error) {
      this.setError(`Docker is not available: ${dockerErrorText(error)}`);
      return null;
    }
  }

  /** Makes one container; false when it failed (the next refill tries again). */
  private async make(spec: SandboxSpec, target: PoolTarget): Promise<boolean> {
    const id = newSandboxId();
    const controller = new AbortController();
    this.filling = controller;
    try {
      const made = await this.deps.provider.createPooled(id, spec, controller.signal);
      const container = { id, containerId: made.containerId, key: target.key, imageId: made.imageId };
      if (this.closed) await this.remove(id);
      else this.ready.push(container);
      this.error = null;
      return true;
    } catch (error) {
      await this.remove(id);
      if (!controller.signal.aborted)
        this.setError(`A warm container could not be made: ${dockerErrorText(error)}`);
      return false;
    } finally {
      this.filling = null;
    }
  }

  private setError(message: string): void {
    if (message !== this.error) this.deps.logger.warn(message);
    this.error = message;
  }

  private discard(container: PooledContainer): void {
    this.ready = this.ready.filter((other) => other !== container);
    void this.remove(container.id);
  }

  private async remove(id: string): Promise<void> {
    try {
      await this.deps.provider.removePooled(id);
    } catch (error) {
      this.deps.logger.warn({ sandbox: id, err: error }, 'Could not remove a warm-pool container');
    }
  }

  /** Removes this install's unclaimed pool containers, left by a crash (run before the pool holds any). */
  private async sweep(): Promise<void> {
    let ids: string[];
    try {
      ids = await this.deps.provider.pooledIds();
    } catch {
      return; // Docker is not available: the next start sweeps.
    }
    const orphans = ids.filter((id) => !this.deps.claimed(id));
    if (orphans.length)
      this.deps.logger.info({ count: orphans.length }, 'Removing leftover warm-pool containers');
    await Promise.all(orphans.map((id) => this.remove(id)));
  }
}
