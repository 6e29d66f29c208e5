import { newSandboxId } from './sandbox-id';
import type { SandboxProviderKind, SandboxRecord, SandboxSpec } from './sandbox-models';
import type { PreparedSandbox } from './sandbox-provider';

/** The record of a sandbox that starts now: a prepared one's id and container, else a new id. */
export function newSandboxRecord(
  provider: SandboxProviderKind,
  spec: SandboxSpec,
  prepared: PreparedSandbox | null,
): SandboxRecord {
  const createdAt = new Date().toISOString();
  return {
    id: prepared?.id ?? newSandboxId(),
    provider,
    specId: spec.id,
    status: 'STARTING',
    error: null,
    containerId: prepared?.containerId ?? null,
    exposedUrls: [],
    createdAt,
    lastUsedAt: createdAt,
  };
}
