import { truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ValidationFailed } from '../http/validation';
import { localWorkspace, type LocalWorkspace } from '../../../test/support/workspaces';
import { resolveInWorkspace } from './workspace-access';
import { decodeText, MAX_OPENED_FILE_BYTES, openTextFile } from './workspace-text';

describe('decodeText', () => {
  it('decodes UTF-8 and keeps a byte order mark', () => {
    expect(decodeText(Buffer.from('héllo ✓\n'))).toBe('héllo ✓\n');
    expect(decodeText(Buffer.from('\ufeffbom'))).toBe('\ufeffbom');
    expect(decodeText(Buffer.alloc(0))).toBe('');
  });

  it('treats a NUL in the first 8 KiB, or invalid UTF-8, as binary', () => {
    expect(decodeText(Buffer.from([0x61, 0x00, 0x62]))).toBeNull();
    expect(decodeText(Buffer.from([0x61, 0xff, 0x62]))).toBeNull();
    expect(decodeText(Buffer.concat([Buffer.alloc(8191, 0x61), Buffer.from([0])]))).toBeNull();
    const lateNul = Buffer.concat([Buffer.alloc(8192, 0x61), Buffer.from([0])]);
    expect(decodeText(lateNul)).toBe(lateNul.toString('utf8'));
  });
});

describe('openTextFile', () => {
  let ws: LocalWorkspace;
  const open = async (file: string) =>
    openTextFile(ws, await resolveInWorkspace(ws, file, ['query', 'file']), file, ['query', 'file']);

  beforeEach(async () => {
    ws = await localWorkspace();
    await ws.sh('mkdir dir && printf "text ✓" > a.txt && ln -s a.txt link.txt');
  });
  afterEach(() => ws.remove());

  it('answers the text of a file, through a link inside the workspace', async () => {
    expect(await open('a.txt')).toBe('text ✓');
    expect(await open('link.txt')).toBe('text ✓');
  });

  it('answers 404 for what is missing or not a file', async () => {
    await expect(open('missing.txt')).rejects.toMatchObject({
      status: 404,
      body: { detail: 'File not found: missing.txt' },
    });
    await expect(open('dir')).rejects.toMatchObject({ status: 404, body: { detail: 'Not a file: dir' } });
  });

  it('answers 415 for a binary file, naming it as asked', async () => {
    await writeFile(join(ws.workingDir, 'dir/image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]));
    await expect(open('dir/image.png')).rejects.toMatchObject({
      status: 415,
      body: { detail: 'Unable to open binary file: dir/image.png' },
    });
  });

  it('answers 422 for a file over 5 MiB', async () => {
    await writeFile(join(ws.workingDir, 'big.txt'), '');
    await truncate(join(ws.workingDir, 'big.txt'), MAX_OPENED_FILE_BYTES + 1);
    const error = await open('big.txt').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationFailed);
    expect((error as ValidationFailed).detail).toEqual([
      {
        type: 'value_error',
        loc: ['query', 'file'],
        msg: 'Value error, File is too large to open (max 5242880 bytes)',
        input: 'big.txt',
      },
    ]);
  });
});
