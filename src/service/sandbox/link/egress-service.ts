import { decideEgress, type EgressDecision, localAddresses, type Resolver } from './egress-gate';
import type { EgressPolicy, EgressTarget } from './egress-policy';

/** Decisions kept per sandbox (the oldest go first). */
const LOG_LIMIT = 1000;

export interface EgressServiceOptions {
  /** The policy that applies to a sandbox now (its conversation's, else the settings'). */
  policy(sandboxId: string): EgressPolicy;
  resolve: Resolver;
  /** Ports of this machine no sandbox may reach whatever the policy: Dockhand's own, the links' forwarded ones. */
  protectedPorts(): number[];
  /**
   * How long a refused connection of the sandbox is held open while the user may allow it (confirmation
   * mode), in ms; 0 refuses at once.
   */
  holdMs(sandboxId: string): number;
}

/** Refusals no allow entry can lift: never held. */
const FINAL_RULES = new Set(['dockhand port']);

export type EgressListener = (sandboxId: string, decision: EgressDecision) => void;

/**
 * Decides the connections gated sandboxes ask their proxy for, keeps each sandbox's log of them, and tells
 * listeners (the conversations turn refusals into events).
 */
export class EgressService {
  private readonly logs = new Map<string, EgressDecision[]>();
  private readonly listeners = new Set<EgressListener>();
  /** Wakes the held connections of a sandbox (its policy may allow them now). */
  private readonly holds = new Map<string, Set<() => void>>();

  constructor(private readonly options: EgressServiceOptions) {}

  /**
   * Decides one connection and records it. A refusal the user could lift is held (confirmation mode) until
   * an allow lets it through, without a retry by the tool, or the hold ends.
   */
  async check(sandboxId: string, target: EgressTarget): Promise<EgressDecision> {
    const decision = await this.decide(sandboxId, target);
    const holdMs = decision.allowed || FINAL_RULES.has(decision.rule) ? 0 : this.options.holdMs(sandboxId);
    if (holdMs <= 0) return this.record(sandboxId, decision);
    this.record(sandboxId, { ...decision, held: true });
    const deadline = Date.now() + holdMs;
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining <= 0 || !(await this.wake(sandboxId, remaining))) return decision;
      const again = await this.decide(sandboxId, target);
      if (again.allowed) return this.record(sandboxId, again);
    }
  }

  /** The sandboxes with connections held now. */
  sandboxes(): string[] {
    return [...this.holds.keys()];
  }

  /** The sandbox's policy changed: its held connections are decided again. */
  reconsider(sandboxId: string): void {
    for (const wake of this.holds.get(sandboxId) ?? []) wake();
  }

  private decide(sandboxId: string, target: EgressTarget): Promise<EgressDecision> {
    const context = () => ({
      hostAddresses: localAddresses(),
      protectedPorts: new Set(this.options.protectedPorts()),
    });
    return decideEgress({ resolve: this.options.resolve, context }, this.options.policy(sandboxId), target);
  }

  /** Resolves true when the sandbox's holds are woken, false when `ms` passed first. */
  private wake(sandboxId: string, ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const holds = this.holds.get(sandboxId) ?? new Set<() => void>();
      this.holds.set(sandboxId, holds);
      const done = (woken: boolean) => {
        clearTimeout(timer);
        holds.delete(wakeUp);
        if (holds.size === 0) this.holds.delete(sandboxId);
        resolve(woken);
      };
      const wakeUp = () => done(true);
      const timer = setTimeout(() => done(false), ms);
      holds.add(wakeUp);
    });
  }

  private record(sandboxId: string, decision: EgressDecision): EgressDecision {
    const log = this.logs.get(sandboxId) ?? [];
    log.push(decision);
    if (log.length > LOG_LIMIT) log.splice(0, log.length - LOG_LIMIT);
    this.logs.set(sandboxId, log);
    for (const listener of this.listeners) listener(sandboxId, decision);
    return decision;
  }

  /** The sandbox's decisions, oldest first. */
  log(sandboxId: string): EgressDecision[] {
    return [...(this.logs.get(sandboxId) ?? [])];
  }

  onDecision(listener: EgressListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  forget(sandboxId: string): void {
    this.logs.delete(sandboxId);
  }
}
