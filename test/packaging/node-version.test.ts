import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PINNED = /^DOCKHAND_NODE_VERSION="(\d+\.\d+\.\d+)"$/m.exec(
  readFileSync(path.join(ROOT, 'scripts/lib/node.sh'), 'utf8'),
)?.[1];

describe('the Node the tests run on', () => {
  it('is the version scripts/lib/node.sh pins (the Node 24 line the pinned Electron embeds)', () => {
    console.log(`Tests run on Node ${process.version} (${process.execPath})`);
    expect(PINNED).toMatch(/^24\./);
    expect(process.version).toBe(`v${PINNED}`);
  });

  it("is inside package.json's engines range", () => {
    const { engines } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    expect(engines.node).toBe('>=24.11.0 <25');
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
    expect(major).toBe(24);
    expect(minor).toBeGreaterThanOrEqual(11);
  });
});
