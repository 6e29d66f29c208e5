import { describe, expect, it } from 'vitest';
import { SANDBOX_ID_PATTERN } from '../../shared/api/sandboxes';
import { containerName, isSandboxId, newSandboxId, volumeName } from './sandbox-id';

describe('sandbox ids', () => {
  it('are sbx- and 22 base62 characters, all different', () => {
    const ids = Array.from({ length: 200 }, newSandboxId);
    for (const id of ids) expect(id).toMatch(SANDBOX_ID_PATTERN);
    expect(new Set(ids).size).toBe(ids.length);
    expect(isSandboxId('sbx-unknown')).toBe(false);
    expect(containerName('sbx-a')).toBe('dockhand-sbx-a');
    expect(volumeName('sbx-a')).toBe('dockhand-ws-sbx-a');
  });
});
