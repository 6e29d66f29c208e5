import Docker from 'dockerode';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tar from 'tar-stream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  dockerUnavailableReason,
  removeContainer,
  startTestContainer,
} from '../../../../test/support/test-sandboxes';
import { dockerExec } from '../docker/docker-exec';
import { DockerSandboxFiles } from './docker-files';
import { LocalSandboxFiles } from './local-files';
import { SandboxFileError, type SandboxFiles } from './sandbox-files';

interface Fixture {
  files: SandboxFiles;
  /** An empty directory to work in. */
  root: string;
  /** Runs a shell command in the sandbox as its owner (root in a container). */
  sh(script: string): Promise<void>;
  /** Who owns a new file written through `files`. */
  newFileUid: number;
  remove(): Promise<void>;
}

const docker = new Docker();
const dockerSkipReason = await dockerUnavailableReason(docker);

const kinds = [
  {
    name: 'docker',
    skipReason: dockerSkipReason,
    create: async (): Promise<Fixture> => {
      const container = await startTestContainer(docker, 'files');
      const root = '/workspace/project/work';
      const sh = async (script: string) => {
        const result = await dockerExec(container, ['sh', '-c', script]);
        if (result.exitCode !== 0) throw new Error(result.stderr);
      };
      await sh(`mkdir -p ${root} && chown dockhand:dockhand ${root}`);
      const files = new DockerSandboxFiles(container);
      return { files, root, sh, newFileUid: 1000, remove: () => removeContainer(container) };
    },
  },
  {
    name: 'local',
    skipReason: null,
    create: async (): Promise<Fixture> => {
      const root = await mkdtemp(join(tmpdir(), 'dockhand-files-'));
      const sh = (script: string) =>
        new Promise<void>((resolve, reject) =>
          execFile('sh', ['-c', script], (error) => (error ? reject(error) : resolve())),
        );
      return {
        files: new LocalSandboxFiles(),
        root,
        sh,
        newFileUid: process.getuid?.() ?? -1,
        remove: () => rm(root, { recursive: true, force: true }),
      };
    },
  },
];

const ALL_BYTES = Buffer.concat([
  Buffer.from(Array.from({ length: 256 }, (_, byte) => byte)),
  randomBytes(70_000),
]);

async function tarOf(entries: tar.Header[], contents: Record<string, Buffer>): Promise<Buffer> {
  const pack = tar.pack();
  for (const header of entries) pack.entry(header, contents[header.name] ?? Buffer.alloc(0));
  pack.finalize();
  const chunks: Uint8Array[] = [];
  for await (const chunk of pack) chunks.push(chunk as Uint8Array);
  return Buffer.concat(chunks);
}

async function entriesOf(
  archive: NodeJS.ReadableStream,
): Promise<Map<string, { type: string; data: Buffer }>> {
  const extract = tar.extract();
  archive.pipe(extract);
  const entries = new Map<string, { type: string; data: Buffer }>();
  for await (const entry of extract) {
    const chunks: Uint8Array[] = [];
    for await (const chunk of entry) chunks.push(chunk as Uint8Array);
    entries.set(entry.header.name.replace(/\/$/, ''), {
      type: entry.header.type,
      data: Buffer.concat(chunks),
    });
  }
  return entries;
}

function header(name: string, type: tar.Header['type'], mode: number, size = 0): tar.Header {
  return {
    name,
    type,
    mode,
    size,
    mtime: new Date(),
    uid: 1000,
    gid: 1000,
    linkname: '',
    uname: '',
    gname: '',
    devmajor: 0,
    devminor: 0,
  };
}

describe.each(kinds)('$name sandbox files', (kind) => {
  if (kind.skipReason) console.warn(`Skipping the ${kind.name} file tests: ${kind.skipReason}`);
  const test = it.skipIf(kind.skipReason !== null);
  const fixtures: Fixture[] = [];

  async function open(): Promise<Fixture> {
    const fixture = await kind.create();
    fixtures.push(fixture);
    return fixture;
  }

  async function cleanUp(): Promise<void> {
    await Promise.all(fixtures.splice(0).map((fixture) => fixture.remove()));
  }

  afterEach(cleanUp);
  afterAll(cleanUp);

  test('writes and reads back every byte unchanged, creating parent directories', async () => {
    const { files, root } = await open();
    const path = `${root}/deep/er/data.bin`;
    await files.write(path, ALL_BYTES);
    expect((await files.read(path)).equals(ALL_BYTES)).toBe(true);
    await files.write(path, 'replaced\r\n');
    expect((await files.read(path)).toString()).toBe('replaced\r\n');
  });

  test('keeps the mode and owner of an existing file, and writes through a symlink', async () => {
    const { files, root, sh, newFileUid } = await open();
    await sh(`printf old > ${root}/tool.sh && chmod 750 ${root}/tool.sh && ln -s tool.sh ${root}/link`);
    const before = await files.stat(`${root}/tool.sh`);
    await files.write(`${root}/link`, '#!/bin/sh\necho new\n');
    const after = await files.stat(`${root}/tool.sh`);
    expect(after).toMatchObject({ type: 'file', mode: 0o750, uid: before?.uid, gid: before?.gid });
    expect((await files.read(`${root}/tool.sh`)).toString()).toBe('#!/bin/sh\necho new\n');
    expect((await files.list(root)).find((entry) => entry.name === 'link')).toMatchObject({
      type: 'symlink',
      linkTarget: 'tool.sh',
    });
    await files.write(`${root}/new.txt`, 'x', { mode: 0o600 });
    expect(await files.stat(`${root}/new.txt`)).toMatchObject({ mode: 0o600, uid: newFileUid });
  });

  test('lists one level, sorted, with types and sizes', async () => {
    const { files, root, sh } = await open();
    await sh(`mkdir -p ${root}/b-dir/inner && printf 12345 > ${root}/a.txt && ln -s a.txt ${root}/c-link`);
    const entries = await files.list(root);
    expect(entries.map((entry) => [entry.name, entry.type])).toEqual([
      ['a.txt', 'file'],
      ['b-dir', 'directory'],
      ['c-link', 'symlink'],
    ]);
    expect(entries[0]).toMatchObject({ path: `${root}/a.txt`, size: 5, linkTarget: null });
    expect(entries[0]?.mtimeMs).toBeGreaterThan(Date.UTC(2020, 0, 1));
  });

  test('stats files and directories, following links, and answers null for nothing', async () => {
    const { files, root, sh } = await open();
    await sh(`printf abc > ${root}/f && ln -s f ${root}/l && ln -s missing ${root}/dangling`);
    expect(await files.stat(`${root}/f`)).toMatchObject({ type: 'file', size: 3, name: 'f' });
    expect(await files.stat(`${root}/l`)).toMatchObject({ type: 'file', size: 3, name: 'l' });
    expect(await files.stat(root)).toMatchObject({ type: 'directory' });
    expect(await files.stat(`${root}/nothing`)).toBeNull();
    expect(await files.stat(`${root}/dangling`)).toBeNull();
  });

  test('names what went wrong', async () => {
    const { files, root, sh } = await open();
    await sh(`printf x > ${root}/file`);
    const code = (promise: Promise<unknown>) =>
      promise.then(
        () => 'resolved',
        (error: unknown) => (error instanceof SandboxFileError ? error.code : String(error)),
      );
    expect(await code(files.read(`${root}/missing`))).toBe('not_found');
    expect(await code(files.read(root))).toBe('is_directory');
    expect(await code(files.write(root, 'x'))).toBe('is_directory');
    expect(await code(files.list(`${root}/file`))).toBe('not_directory');
    expect(await code(files.list(`${root}/missing`))).toBe('not_found');
    expect(await code(files.read('relative/path'))).toBe('invalid_path');
  });

  test('uploads a tar with bytes unchanged and downloads a directory as a tar', async () => {
    const { files, root } = await open();
    const archive = await tarOf(
      [
        header('pkg', 'directory', 0o755),
        header('pkg/bin', 'directory', 0o750),
        header('pkg/bin/data.bin', 'file', 0o640, ALL_BYTES.length),
        header('pkg/readme.md', 'file', 0o644, 6),
      ],
      { 'pkg/bin/data.bin': ALL_BYTES, 'pkg/readme.md': Buffer.from('hello\n') },
    );
    await files.upload(`${root}/in`, archive);
    expect((await files.read(`${root}/in/pkg/bin/data.bin`)).equals(ALL_BYTES)).toBe(true);
    expect((await files.stat(`${root}/in/pkg/bin/data.bin`))?.mode).toBe(0o640);
    expect((await files.stat(`${root}/in/pkg/bin`))?.mode).toBe(0o750);

    const entries = await entriesOf(await files.download(`${root}/in/pkg`));
    expect([...entries.keys()].sort()).toEqual(['pkg', 'pkg/bin', 'pkg/bin/data.bin', 'pkg/readme.md']);
    expect(entries.get('pkg/bin')?.type).toBe('directory');
    expect(entries.get('pkg/bin/data.bin')?.data.equals(ALL_BYTES)).toBe(true);
    expect(entries.get('pkg/readme.md')?.data.toString()).toBe('hello\n');

    const single = await entriesOf(await files.download(`${root}/in/pkg/readme.md`));
    expect([...single.keys()]).toEqual(['readme.md']);
  });
});

describe('local sandbox files', () => {
  it('refuses archive entries that leave the target directory', async () => {
    const root = await mkdtemp(join(tmpdir(), 'dockhand-files-'));
    try {
      const files = new LocalSandboxFiles();
      const escape = await tarOf([header('../escaped.txt', 'file', 0o644, 1)], {
        '../escaped.txt': Buffer.from('x'),
      });
      await expect(files.upload(`${root}/in`, escape)).rejects.toThrow(/outside the directory/);
      const throughLink = await tarOf(
        [
          { ...header('link', 'symlink', 0o777), linkname: tmpdir() },
          header('link/file.txt', 'file', 0o644, 1),
        ],
        { 'link/file.txt': Buffer.from('x') },
      );
      await expect(files.upload(`${root}/in`, throughLink)).rejects.toThrow(/through a symbolic link/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
