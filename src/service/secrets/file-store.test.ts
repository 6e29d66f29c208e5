import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSecretStore } from './file-store';

describe('FileSecretStore', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps its old contents when the file cannot be written (e.g. a full disk)', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'dockhand-secrets-'));
    const store = new FileSecretStore(dir, pino({ level: 'silent' }));
    await store.set('a', '1');
    // A folder where the temporary file goes makes the write fail, for root too.
    mkdirSync(path.join(dir, 'secrets.json.tmp'));
    await expect(store.set('b', '2')).rejects.toThrow();
    expect(await store.get('b')).toBeNull();
    expect(store.values()).toEqual(['1']);
    expect(JSON.parse(readFileSync(path.join(dir, 'secrets.json'), 'utf8'))).toEqual({ a: '1' });
  });
});
