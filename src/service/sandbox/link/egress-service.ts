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
}

export type EgressListener = (sandboxId: string, decision: EgressDecision) => void;

/**
 * Decides the connections gated sandboxes ask their proxy for, keeps each sandbox's log of them, and tells
 * listeners (the conversations turn refusals into events).
 */
export class EgressService {
  private readonly logs = new Map<string, EgressDecision[]>();
  private readonly listeners = new Set<EgressListener>();

  constructor(private readonly options: EgressServiceOptions) {}

  async check(sandboxId: string, target: EgressTarget): Promise<EgressDecision> {
    const context = () => ({
      hostAddresses: localAddresses(),
      protectedPorts: new Set(this.options.protectedPorts()),
    });
    const decision = await decideEgress(
      { resolve: this.options.resolve, context },
      this.options.policy(sandboxId),
      target,
    );
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
