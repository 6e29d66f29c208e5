import type { ModelRoute } from './model-routing';
import { probeModelServer, type ServerFacts } from './model-server-probe';
import type { ToolMode } from './tool-call-probe';

/**
 * What was probed about each model (by model string and base URL), kept for the service's lifetime: the
 * server's facts and the tool mode. A new model is probed again; "Test connection" refreshes.
 */
export class ModelProbes {
  private readonly facts = new Map<string, Promise<ServerFacts>>();
  private readonly toolModes = new Map<string, ToolMode>();

  constructor(private readonly fetchFn: typeof globalThis.fetch = globalThis.fetch) {}

  private key(route: ModelRoute): string {
    return `${route.model}\n${route.baseUrl}`;
  }

  /** The server's facts, probed once (again with `refresh`); a failed probe is not kept. */
  serverFacts(route: ModelRoute, refresh = false): Promise<ServerFacts> {
    const key = this.key(route);
    const known = this.facts.get(key);
    if (known && !refresh) return known;
    const probing = probeModelServer(route, this.fetchFn);
    this.facts.set(key, probing);
    probing.catch(() => this.facts.delete(key));
    return probing;
  }

  /** Replaces the facts once the server changed them (LM Studio loaded the model with another context). */
  updateFacts(route: ModelRoute, facts: ServerFacts): void {
    this.facts.set(this.key(route), Promise.resolve(facts));
  }

  /** Drops the facts (the server cut a prompt: what it runs may have changed since it was probed). */
  forgetFacts(route: ModelRoute): void {
    this.facts.delete(this.key(route));
  }

  toolMode(route: ModelRoute): ToolMode | null {
    return this.toolModes.get(this.key(route)) ?? null;
  }

  setToolMode(route: ModelRoute, mode: ToolMode): void {
    this.toolModes.set(this.key(route), mode);
  }
}
