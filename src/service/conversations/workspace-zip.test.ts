import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import * as tar from 'tar-stream';
import { afterEach, describe, expect, it } from 'vitest';
import { readZip } from '../../../test/conversations/zip-reader';
import { localWorkspace, type LocalWorkspace } from '../../../test/support/workspaces';
import { MAX_ZIP_CONTENT_BYTES, zipFromTar } from './workspace-zip';

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function typeOf(mode: number): string {
  return { 0o100000: 'file', 0o040000: 'folder', 0o120000: 'symlink' }[mode & 0o170000] ?? 'other';
}

describe('zipFromTar', () => {
  let ws: LocalWorkspace | null = null;
  afterEach(() => ws?.remove());

  it('repacks a folder archive with names relative to the folder, links kept as links', async () => {
    const pack = tar.pack();
    const binary = randomBytes(70_000);
    const mtime = new Date('2025-01-02T03:04:05Z');
    pack.entry({ name: 'project/', type: 'directory', mode: 0o755, mtime });
    pack.entry({ name: 'project/src/', type: 'directory', mode: 0o750, mtime });
    pack.entry({ name: 'project/src/a.txt', type: 'file', mode: 0o644, mtime }, 'hello\n');
    pack.entry({ name: 'project/run.sh', type: 'file', mode: 0o755, mtime }, '#!/bin/sh\n');
    pack.entry({ name: 'project/blob.bin', type: 'file', mode: 0o644, mtime }, binary);
    pack.entry({ name: 'project/to-etc', type: 'symlink', linkname: '/etc', mode: 0o777, mtime });
    pack.entry({
      name: 'project/again.txt',
      type: 'link',
      linkname: 'project/src/a.txt',
      mode: 0o644,
      mtime,
    });
    pack.finalize();
    const linked: string[] = [];
    const zip = zipFromTar(Readable.from(pack, { objectMode: false }), async (path) => {
      linked.push(path);
      return { size: 6, content: Readable.from([Buffer.from('hello\n')]) };
    });

    const entries = readZip(await collect(zip));
    expect(entries.map((e) => [e.name, typeOf(e.mode), e.mode & 0o777])).toEqual([
      ['src/', 'folder', 0o750],
      ['src/a.txt', 'file', 0o644],
      ['run.sh', 'file', 0o755],
      ['blob.bin', 'file', 0o644],
      ['to-etc', 'symlink', 0o777],
      ['again.txt', 'file', 0o644],
    ]);
    const content = Object.fromEntries(entries.map((e) => [e.name, e.data]));
    expect(content['src/a.txt']?.toString()).toBe('hello\n');
    expect(content['blob.bin']?.equals(binary)).toBe(true);
    expect(content['to-etc']?.toString()).toBe('/etc');
    expect(content['again.txt']?.toString()).toBe('hello\n');
    expect(linked).toEqual(['project/src/a.txt']);
  });

  it('zips a real folder through its sandbox archive', async () => {
    ws = await localWorkspace();
    await ws.sh('mkdir -p docs/empty && printf "x" > docs/x.md && ln -s docs/x.md link.md');
    await writeFile(join(ws.workingDir, 'ünïcode.txt'), 'ü');
    const archive = (await ws.files.download(ws.workingDir)) as Readable;
    const entries = readZip(await collect(zipFromTar(archive, () => Promise.reject(new Error('no links')))));
    expect(entries.map((e) => e.name).sort()).toEqual([
      'docs/',
      'docs/empty/',
      'docs/x.md',
      'link.md',
      'ünïcode.txt',
    ]);
    expect(entries.find((e) => e.name === 'ünïcode.txt')?.data.toString()).toBe('ü');
  });

  it('fails the zip stream when the archive breaks off', async () => {
    const pack = tar.pack();
    pack.entry({ name: 'project/a.txt', type: 'file' }, Buffer.alloc(4096, 1));
    pack.finalize();
    const whole = await collect(Readable.from(pack, { objectMode: false }));
    const broken = new Readable({ read() {} });
    const done = collect(zipFromTar(broken, () => Promise.reject(new Error('no links'))));
    broken.push(whole.subarray(0, 1024));
    broken.destroy(new Error('engine went away'));
    await expect(done).rejects.toThrow('engine went away');
  });

  it('counts each hard link as the file it repeats, and stops past the content cap', async () => {
    const pack = tar.pack();
    pack.entry({ name: 'project/a.bin', type: 'file' }, Buffer.alloc(4096, 1));
    pack.entry({ name: 'project/b.bin', type: 'link', linkname: 'project/a.bin' });
    pack.finalize();
    const linked = new Readable({ read() {} });
    const zip = zipFromTar(Readable.from(pack, { objectMode: false }), async () => ({
      size: MAX_ZIP_CONTENT_BYTES - 4095,
      content: linked,
    }));
    await expect(collect(zip)).rejects.toThrow(`more than ${MAX_ZIP_CONTENT_BYTES} bytes`);
    expect(linked.destroyed).toBe(true);
  });
});
