import { describe, expect, it } from 'vitest';
import { workBranchName } from './clone';

describe('workBranchName', () => {
  it('is dockhand-workspace- and 8 characters of [a-z0-9], different each time', () => {
    const names = new Set(Array.from({ length: 20 }, () => workBranchName()));
    for (const name of names) expect(name).toMatch(/^dockhand-workspace-[a-z0-9]{8}$/);
    expect(names.size).toBe(20);
  });
});
