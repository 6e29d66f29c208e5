/** Labels on every container and volume Dockhand creates. */
export const LABEL = {
  managed: 'dev.dockhand.managed',
  sandboxId: 'dev.dockhand.sandbox_id',
  spec: 'dev.dockhand.spec',
  instance: 'dev.dockhand.instance',
  /** Short-lived containers that read an image's files (never started). */
  probe: 'dev.dockhand.probe',
  /** Made ahead of time for the warm pool; without a sandbox record it is unclaimed (or orphaned). */
  pool: 'dev.dockhand.pool',
  /** The sandbox network mode it was made with (`gated` ones get a link). */
  network: 'dev.dockhand.network',
} as const;

/** The labels that mark something as this install's. */
export function installLabels(instanceId: string): Record<string, string> {
  return { [LABEL.managed]: 'true', [LABEL.instance]: instanceId };
}

/** The Docker API label filter for this install's objects. */
export function installFilter(instanceId: string): string[] {
  return [`${LABEL.managed}=true`, `${LABEL.instance}=${instanceId}`];
}
