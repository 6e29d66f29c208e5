import { createReadStream, createWriteStream, type Stats } from 'node:fs';
import {
  chmod,
  lstat,
  mkdir,
  open,
  readdir,
  readlink,
  stat,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar-stream';
import {
  DEFAULT_MAX_READ_BYTES,
  SandboxFileError,
  type FileInfo,
  type ReadOptions,
  type SandboxFiles,
  type WriteOptions,
} from './sandbox-files';
import { readLimited } from './file-stream';
import { pathName, sandboxPath } from './sandbox-path';

type ArchiveEntry = AsyncIterable<unknown> & { header: tar.Header; resume(): unknown };

/** Files of the process provider: the sandbox is this machine, so sandbox paths are host paths. */
export class LocalSandboxFiles implements SandboxFiles {
  /** The host's files are read directly: a survey would save nothing. */
  async survey(): Promise<null> {
    return null;
  }

  async read(path: string, options: ReadOptions = {}): Promise<Buffer> {
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_READ_BYTES;
    try {
      const file = await open(sandboxPath(path));
      try {
        // Read to the end rather than trust the size: the file may grow while it is read.
        return await readLimited(file.createReadStream({ autoClose: false }), maxBytes, path);
      } finally {
        await file.close();
      }
    } catch (error) {
      throw fileError(error, path);
    }
  }

  async write(path: string, data: Buffer | string, options: WriteOptions = {}): Promise<void> {
    const target = sandboxPath(path);
    try {
      const existing = await statOrNull(target);
      if (existing?.isDirectory()) throw new SandboxFileError('is_directory', `${path} is a directory`);
      await mkdir(dirname(target), { recursive: true });
      // Writing in place keeps an existing file's inode, mode and owner.
      await writeFile(target, data, existing ? {} : { mode: options.mode ?? 0o644 });
    } catch (error) {
      throw fileError(error, path);
    }
  }

  async list(directory: string): Promise<FileInfo[]> {
    const target = sandboxPath(directory);
    try {
      const names = await readdir(target);
      const entries = await Promise.all(names.map((name) => describe(join(target, name), false)));
      return entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    } catch (error) {
      throw fileError(error, directory);
    }
  }

  async stat(path: string): Promise<FileInfo | null> {
    const target = sandboxPath(path);
    try {
      return await describe(target, true);
    } catch (error) {
      if (isCode(error, 'ENOENT', 'ENOTDIR', 'ELOOP')) return null;
      throw fileError(error, path);
    }
  }

  async upload(directory: string, archive: NodeJS.ReadableStream | Buffer): Promise<void> {
    const root = sandboxPath(directory);
    try {
      await mkdir(root, { recursive: true });
      const extract = tar.extract();
      const source = Buffer.isBuffer(archive) ? Readable.from([archive]) : archive;
      source.on('error', (error: Error) => extract.destroy(error));
      source.pipe(extract);
      // Iterate at once: the extractor emits entries only to a consumer that is already listening.
      for await (const entry of extract) {
        await extractEntry(root, entry);
      }
    } catch (error) {
      throw fileError(error, directory);
    }
  }

  async download(path: string): Promise<NodeJS.ReadableStream> {
    const target = sandboxPath(path);
    try {
      await lstat(target);
    } catch (error) {
      throw fileError(error, path);
    }
    const pack = tar.pack();
    addToArchive(pack, target, pathName(target)).then(
      () => pack.finalize(),
      (error: unknown) => pack.destroy(error instanceof Error ? error : new Error(String(error))),
    );
    return Readable.from(pack, { objectMode: false });
  }
}

async function describe(path: string, follow: boolean): Promise<FileInfo> {
  const info = follow ? await stat(path) : await lstat(path);
  const link = info.isSymbolicLink() ? await readlink(path) : null;
  return {
    path,
    name: pathName(path),
    type: info.isFile()
      ? 'file'
      : info.isDirectory()
        ? 'directory'
        : info.isSymbolicLink()
          ? 'symlink'
          : 'other',
    size: info.size,
    mode: info.mode & 0o7777,
    uid: info.uid,
    gid: info.gid,
    mtimeMs: Math.round(info.mtimeMs),
    linkTarget: link,
  };
}

/** Writes one archive entry below root, refusing names that leave it and links on the way. */
async function extractEntry(root: string, entry: ArchiveEntry): Promise<void> {
  const { header } = entry;
  const name = posix
    .normalize(header.name)
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '');
  if (name.startsWith('/') || name === '..' || name.startsWith('../')) {
    throw new SandboxFileError('failed', `The archive entry ${header.name} points outside the directory`);
  }
  if (name === '.' || name === '') {
    entry.resume();
    return;
  }
  await assertNoLinkOnTheWay(root, name);
  const target = join(root, name);
  const mode = (header.mode ?? 0o644) & 0o7777;
  await mkdir(dirname(target), { recursive: true });
  switch (header.type) {
    case 'directory':
      entry.resume();
      await mkdir(target, { recursive: true });
      await chmod(target, mode);
      return;
    case 'file':
      await removeLink(target);
      await pipeline(entry, createWriteStream(target, { mode }));
      await chmod(target, mode);
      return;
    case 'symlink':
      entry.resume();
      await removeLink(target);
      await symlink(header.linkname ?? '', target);
      return;
    default:
      entry.resume();
      throw new SandboxFileError(
        'failed',
        `Unsupported archive entry type ${header.type} for ${header.name}`,
      );
  }
}

async function assertNoLinkOnTheWay(root: string, name: string): Promise<void> {
  const segments = name.split('/').slice(0, -1);
  for (let depth = 1; depth <= segments.length; depth++) {
    const info = await lstatOrNull(join(root, ...segments.slice(0, depth)));
    if (!info) return;
    if (info.isSymbolicLink()) {
      throw new SandboxFileError(
        'failed',
        `The archive entry ${name} would be written through a symbolic link`,
      );
    }
  }
}

async function removeLink(path: string): Promise<void> {
  if ((await lstatOrNull(path))?.isSymbolicLink()) await unlink(path);
}

async function addToArchive(pack: tar.Pack, path: string, name: string): Promise<void> {
  const info = await lstat(path);
  const header = { name, mode: info.mode & 0o7777, uid: info.uid, gid: info.gid, mtime: info.mtime };
  if (info.isDirectory()) {
    pack.entry({ ...header, type: 'directory' });
    for (const child of (await readdir(path)).sort()) {
      await addToArchive(pack, join(path, child), `${name}/${child}`);
    }
  } else if (info.isSymbolicLink()) {
    pack.entry({ ...header, type: 'symlink', linkname: await readlink(path) });
  } else if (info.isFile()) {
    await addFile(pack, { ...header, type: 'file', size: info.size }, path);
  }
  // Sockets, FIFOs and devices have no content to archive.
}

/** Streams a file into an archive entry, with backpressure. */
function addFile(pack: tar.Pack, header: Parameters<tar.Pack['entry']>[0], path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const sink = pack.entry(header, (error) => (error ? reject(error) : resolve()));
    const copy = async (): Promise<void> => {
      for await (const chunk of createReadStream(path)) {
        if (!sink.write(chunk)) await new Promise<void>((drained) => sink.once('drain', () => drained()));
      }
      sink.end(undefined);
    };
    copy().catch((error: unknown) => {
      sink.destroy(error instanceof Error ? error : new Error(String(error)));
      reject(error);
    });
  });
}

async function statOrNull(path: string): Promise<Stats | null> {
  return stat(path).catch((error: unknown) => (isCode(error, 'ENOENT') ? null : Promise.reject(error)));
}

async function lstatOrNull(path: string): Promise<Stats | null> {
  return lstat(path).catch((error: unknown) => (isCode(error, 'ENOENT') ? null : Promise.reject(error)));
}

function isCode(error: unknown, ...codes: string[]): boolean {
  return codes.includes((error as NodeJS.ErrnoException).code ?? '');
}

function fileError(error: unknown, path: string): Error {
  if (error instanceof SandboxFileError) return error;
  if (isCode(error, 'ENOENT')) return new SandboxFileError('not_found', `${path} does not exist`);
  if (isCode(error, 'EISDIR')) return new SandboxFileError('is_directory', `${path} is a directory`);
  if (isCode(error, 'ENOTDIR')) return new SandboxFileError('not_directory', `${path} is not a directory`);
  return new SandboxFileError('failed', `${path}: ${error instanceof Error ? error.message : String(error)}`);
}
