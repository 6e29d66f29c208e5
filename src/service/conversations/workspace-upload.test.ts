import { randomBytes } from 'node:crypto';
import { lstat, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localWorkspace, type LocalWorkspace } from '../../../test/support/workspaces';
import { storeUploads } from './workspace-upload';

describe('storeUploads', () => {
  let ws: LocalWorkspace;
  beforeEach(async () => {
    ws = await localWorkspace();
  });
  afterEach(() => ws.remove());

  it('writes the bytes unchanged into the working directory and lists where they went', async () => {
    const binary = randomBytes(100_000);
    const text = Buffer.from([0xef, 0xbb, 0xbf, 0x68, 0x69, 0x0d, 0x0a]); // BOM and CRLF stay
    const result = await storeUploads(ws, [
      { name: 'data.bin', bytes: binary },
      { name: 'notes é.txt', bytes: text },
    ]);
    expect(result).toEqual({
      uploaded_files: [join(ws.workingDir, 'data.bin'), join(ws.workingDir, 'notes é.txt')],
      skipped_files: [],
    });
    expect((await readFile(join(ws.workingDir, 'data.bin'))).equals(binary)).toBe(true);
    expect((await readFile(join(ws.workingDir, 'notes é.txt'))).equals(text)).toBe(true);
  });

  it('skips files that are too large, badly named or named like a folder', async () => {
    await ws.sh('mkdir src');
    const result = await storeUploads(ws, [
      { name: 'huge.iso', bytes: null },
      { name: '..', bytes: Buffer.from('x') },
      { name: '', bytes: Buffer.from('x') },
      { name: 'src', bytes: Buffer.from('x') },
      { name: 'ok.txt', bytes: Buffer.from('ok') },
    ]);
    expect(result).toEqual({
      uploaded_files: [join(ws.workingDir, 'ok.txt')],
      skipped_files: [
        { name: 'huge.iso', reason: 'File too large' },
        { name: '..', reason: 'Invalid file name' },
        { name: '', reason: 'Invalid file name' },
        { name: 'src', reason: 'A folder has this name' },
      ],
    });
    expect((await stat(join(ws.workingDir, 'src'))).isDirectory()).toBe(true);
  });

  it('replaces a file keeping its mode, and a link without writing where it points', async () => {
    await ws.sh(
      'printf old > run.sh && chmod 755 run.sh && printf keep > ../outside.txt && ln -s ../outside.txt trap.txt',
    );
    await storeUploads(ws, [
      { name: 'run.sh', bytes: Buffer.from('new') },
      { name: 'trap.txt', bytes: Buffer.from('uploaded') },
    ]);
    expect(await readFile(join(ws.workingDir, 'run.sh'), 'utf8')).toBe('new');
    expect((await stat(join(ws.workingDir, 'run.sh'))).mode & 0o777).toBe(0o755);
    expect((await lstat(join(ws.workingDir, 'trap.txt'))).isFile()).toBe(true);
    expect(await readFile(join(ws.workingDir, 'trap.txt'), 'utf8')).toBe('uploaded');
    expect(await readFile(join(ws.outer, 'outside.txt'), 'utf8')).toBe('keep');
  });
});
