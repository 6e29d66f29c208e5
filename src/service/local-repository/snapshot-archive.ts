import { constants, createReadStream } from 'node:fs';
import { lstat, open, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import { hostGit } from './host-git';
import { type CopyNotice, objectStoreFiles, readGitFile } from './object-store';
import { isSafeRepositoryPath } from './repository-path';
import type { LocalRepository } from './resolve-repository';

/** How far the copy is: bytes of file contents sent so far, of all. */
export type CopyProgress = (sent: number, total: number) => void;

/**
 * The most a conversation copies from a repository of this machine (history and working tree together):
 * the copy fills the sandbox's workspace volume and is read into it in one go.
 */
export const MAX_COPY_BYTES = 10 * 1024 ** 3;

export interface SnapshotOptions {
  owner: ArchiveOwner;
  progress: CopyProgress;
  notice: CopyNotice;
  /** MAX_COPY_BYTES unless given. */
  maxBytes?: number;
}

interface Entry {
  /** The path in the archive (`.git/objects/…` or a working tree path). */
  name: string;
  /** Where it is on this machine. */
  source: string;
  size: number;
  mode: number;
  mtime: Date;
  linkTarget: string | null;
}

/** Owner of the archive's files: the sandbox user, so that git in the sandbox owns its copy. */
export interface ArchiveOwner {
  uid: number;
  gid: number;
}

/** How many files are looked at, or read ahead, at once. */
const PARALLEL = 64;
/** Files up to this size are read whole; larger ones are streamed into the archive. */
const READ_WHOLE_BYTES = 4 * 1024 * 1024;

/** `fn` of every item, `PARALLEL` at a time, in order. */
async function inBatches<T, R>(items: T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += PARALLEL)
    results.push(...(await Promise.all(items.slice(start, start + PARALLEL).map(fn))));
  return results;
}

/**
 * The repository's history: its object-store files (loose objects and packs, its own and its alternates'),
 * each still a regular file when looked at.
 */
async function historyEntries(commonDir: string, notice: CopyNotice): Promise<Entry[]> {
  const files = await objectStoreFiles(commonDir, notice);
  const entries = await inBatches(files, async ({ relative, source }): Promise<Entry | null> => {
    const info = await lstat(source);
    if (!info.isFile()) return null;
    return {
      name: `.git/objects/${relative}`,
      source,
      size: info.size,
      mode: 0o444,
      mtime: info.mtime,
      linkTarget: null,
    };
  });
  return entries.filter((entry): entry is Entry => entry !== null);
}

/** An object id: SHA-1 or SHA-256. */
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** Room for 100 000 shallow commits. */
const SHALLOW_MAX_BYTES = 6.5 * 1024 * 1024;

/** A shallow clone's `shallow` file (commit ids, one a line, nothing else); null when there is none. */
async function shallowCommits(commonDir: string): Promise<Buffer | null> {
  const text = (await readGitFile(path.join(commonDir, 'shallow'), SHALLOW_MAX_BYTES))?.toString('utf8');
  const ids = text?.split('\n').filter(Boolean) ?? [];
  return ids.length > 0 && ids.every((id) => OBJECT_ID.test(id)) ? Buffer.from(`${ids.join('\n')}\n`) : null;
}

/** The branches and tags as a `packed-refs` file (remote-tracking refs name remotes the copy does not have). */
async function packedRefs(root: string): Promise<Buffer> {
  const refs = await hostGit(root, [
    'for-each-ref',
    '--format=%(objectname) %(refname)',
    'refs/heads',
    'refs/tags',
  ]);
  if (refs.exitCode !== 0) throw new Error(`Listing the branches of ${root} failed: ${refs.stderr}`);
  return refs.stdout;
}

/**
 * The working tree as it is: tracked files and untracked ones that are not ignored, read from disk as they
 * are (no filters). A path that leads through a symbolic link, or into `.git`, is left out: nothing outside
 * the working tree is ever read.
 */
async function workingTreeEntries(root: string): Promise<Entry[]> {
  const listed = await hostGit(root, ['ls-files', '-z', '--cached', '--others', '--exclude-standard']);
  if (listed.exitCode !== 0) throw new Error(`Listing the files of ${root} failed: ${listed.stderr}`);
  const paths = [...new Set(listed.stdout.toString('utf8').split('\0').filter(Boolean))];
  const realFolders = new Map<string, Promise<boolean>>();
  const insideRoot = (folder: string) => {
    let known = realFolders.get(folder);
    if (!known) {
      const expected = path.join(root, folder);
      known = realpath(expected).then(
        (real) => real === expected,
        () => false,
      );
      realFolders.set(folder, known);
    }
    return known;
  };
  const entries = await inBatches(paths, async (relative): Promise<Entry | null> => {
    if (!isSafeRepositoryPath(relative)) return null;
    const folder = path.posix.dirname(relative);
    if (folder !== '.' && !(await insideRoot(folder))) return null;
    const source = path.join(root, relative);
    const info = await lstat(source).catch(() => null);
    if (info?.isSymbolicLink()) {
      return {
        name: relative,
        source,
        size: 0,
        mode: 0o777,
        mtime: info.mtime,
        linkTarget: await readlink(source),
      };
    }
    if (!info?.isFile()) return null;
    return {
      name: relative,
      source,
      size: info.size,
      mode: info.mode & 0o111 ? 0o755 : 0o644,
      mtime: info.mtime,
      linkTarget: null,
    };
  });
  return entries.filter((entry): entry is Entry => entry !== null);
}

/** Every folder above the entries, parents before their children. */
function foldersOf(entries: Entry[]): string[] {
  const folders = new Set<string>(['.git', '.git/objects']);
  for (const entry of entries) {
    for (let folder = path.posix.dirname(entry.name); folder !== '.'; folder = path.posix.dirname(folder))
      folders.add(folder);
  }
  return [...folders].sort();
}

/** Opens a listed file without following a link that replaced it since, and checks it kept its size. */
async function openListed(entry: Entry) {
  const handle = await open(entry.source, constants.O_RDONLY | constants.O_NOFOLLOW);
  if ((await handle.stat()).size !== entry.size) {
    await handle.close();
    throw new Error(`${entry.source} changed while it was copied`);
  }
  return handle;
}

/** A small file's bytes, read ahead of its turn; null for links and large files (streamed in turn). */
async function readAhead(entry: Entry): Promise<Buffer | null> {
  if (entry.linkTarget !== null || entry.size > READ_WHOLE_BYTES) return null;
  const handle = await openListed(entry);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** `readAhead`, with its failure reported when its turn comes (not as an unhandled rejection before). */
function readLater(entry: Entry): Promise<Buffer | null> {
  const read = readAhead(entry);
  read.catch(() => undefined);
  return read;
}

/** Adds one entry to the archive, from `data` when it was read ahead. */
async function addEntry(
  pack: tar.Pack,
  entry: Entry,
  data: Buffer | null,
  owner: ArchiveOwner,
): Promise<void> {
  const header = { name: entry.name, mode: entry.mode, mtime: entry.mtime, uid: owner.uid, gid: owner.gid };
  const added = (full: Parameters<tar.Pack['entry']>[0], body: Buffer) =>
    new Promise<void>((resolve, reject) =>
      pack.entry(full, body, (error) => (error ? reject(error) : resolve())),
    );
  if (entry.linkTarget !== null)
    return added({ ...header, type: 'symlink', linkname: entry.linkTarget }, Buffer.alloc(0));
  if (data) return added({ ...header, type: 'file', size: data.length }, data);
  const handle = await openListed(entry);
  try {
    const sink = pack.entry({ ...header, type: 'file', size: entry.size });
    await pipeline(createReadStream('', { fd: handle, autoClose: false }), sink);
  } finally {
    await handle.close();
  }
}

/** A size for people, rounded up to a tenth of its unit (so a size over a limit never reads as equal to it). */
function sizeText(bytes: number): string {
  const [unit, name] = (
    [
      [1024 ** 3, 'GB'],
      [1024 ** 2, 'MB'],
      [1024, 'KB'],
    ] as const
  ).find(([size]) => bytes >= size) ?? [1, 'bytes'];
  return `${Math.ceil((bytes / unit) * 10) / 10} ${name}`;
}

/**
 * A tar archive of the copy a conversation starts from, written while it is read: the history
 * (`.git/objects`, `.git/packed-refs`, `.git/shallow`) and, for the current branch, the working tree.
 * Returns the archive and its total size; `progress` is told the bytes sent as the archive is read. A copy
 * over `maxBytes` is refused before anything is read.
 */
export async function snapshotArchive(
  repository: LocalRepository,
  { owner, progress, notice, maxBytes = MAX_COPY_BYTES }: SnapshotOptions,
): Promise<{ archive: tar.Pack; totalBytes: number }> {
  const [history, refs, tree] = await Promise.all([
    historyEntries(repository.commonDir, notice),
    packedRefs(repository.root),
    repository.withWorkingTree ? workingTreeEntries(repository.root) : Promise.resolve([]),
  ]);
  const shallow = await shallowCommits(repository.commonDir);
  const entries = [...history, ...tree];
  const totalBytes = entries.reduce((sum, entry) => sum + entry.size, 0);
  if (totalBytes > maxBytes) {
    throw new Error(
      `${repository.root} is ${sizeText(totalBytes)} (history and working tree), more than the ${sizeText(maxBytes)} a conversation can copy`,
    );
  }
  const pack = tar.pack();
  const header = { mode: 0o644, uid: owner.uid, gid: owner.gid };
  void (async () => {
    // Folders first and with their owner: the engine would create missing ones as root.
    for (const folder of foldersOf(entries))
      pack.entry({ ...header, name: folder, type: 'directory', mode: 0o755 });
    pack.entry({ ...header, name: '.git/packed-refs' }, refs);
    if (shallow) pack.entry({ ...header, name: '.git/shallow' }, shallow);
    let sent = 0;
    // Files are read PARALLEL ahead of the one being added, so the disk is never idle.
    const reads = entries.slice(0, PARALLEL).map(readLater);
    for (const [index, entry] of entries.entries()) {
      const next = entries[index + PARALLEL];
      if (next) reads.push(readLater(next));
      await addEntry(pack, entry, await (reads[index] as Promise<Buffer | null>), owner);
      reads[index] = Promise.resolve(null);
      sent += entry.size;
      progress(sent, totalBytes);
    }
    pack.finalize();
  })().catch((error: unknown) => pack.destroy(error instanceof Error ? error : new Error(String(error))));
  return { archive: pack, totalBytes };
}
