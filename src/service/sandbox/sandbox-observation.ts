import { dockerErrorText } from './docker/docker-errors';
import { type ObservedState, SandboxFailure, type SandboxRecord } from './sandbox-models';
import type { SandboxProvider } from './sandbox-provider';

/** What a sandbox's failure shows as. */
export function failureText(error: unknown): string {
  return error instanceof SandboxFailure ? error.message : `The sandbox failed: ${dockerErrorText(error)}`;
}

/** What a sandbox's provider sees of it now; null when there is nothing to observe. */
export async function observeSandbox(
  record: SandboxRecord,
  provider: SandboxProvider,
): Promise<ObservedState | null> {
  // A sandbox whose creation failed before anything existed has nothing to observe.
  if (record.status === 'ERROR' && record.containerId === null) return null;
  if (record.status === 'STARTING' && record.containerId === null) {
    return {
      status: 'ERROR',
      error: 'Dockhand stopped while the sandbox was being created',
      exposedUrls: [],
    };
  }
  try {
    return await provider.observe(record);
  } catch (error) {
    return { status: 'ERROR', error: failureText(error), exposedUrls: [] };
  }
}

/** Whether what was observed changes the record. */
export function changesRecord(record: SandboxRecord, next: SandboxRecord): boolean {
  return (
    next.status !== record.status ||
    next.error !== record.error ||
    JSON.stringify(next.exposedUrls) !== JSON.stringify(record.exposedUrls)
  );
}
