import { constants, createReadStream } from 'node:fs';
import { lstat, open, readFile, readdir, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import { hostGit } from './host-git';
import type { LocalRepository } from './resolve-repository';

/** How far the copy is: bytes of file contents sent so far, of all. */
export type CopyProgress = (sent: number, total: number) => void;

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

/** Whether a repository path is safe to write under the copy's folder: relative, no `..`, nothing in `.git`. */
export function isSafeRepositoryPath(relative: string): boolean {
  if (!relative || relative.startsWith('/') || relative.includes('\0') || relative.includes('\\'))
    return false;
  return relative
    .split('/')
    .every(
      (segment) => segment !== '' && segment !== '.' && segment !== '..' && segment.toLowerCase() !== '.git',
    );
}

/** Regular files below `folder`, as entries under `prefix`; links and other kinds are left out. */
async function filesBelow(
  folder: string,
  prefix: string,
  skip: (relative: string) => boolean,
): Promise<Entry[]> {
  const entries: Entry[] = [];
  const names = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const dirent of names) {
    if (!dirent.isFile()) continue;
    const source = path.join(dirent.parentPath, dirent.name);
    const relative = path.relative(folder, source).split(path.sep).join('/');
    if (skip(relative)) continue;
    const info = await lstat(source);
    entries.push({
      name: `${prefix}/${relative}`,
      source,
      size: info.size,
      mode: 0o444,
      mtime: info.mtime,
      linkTarget: null,
    });
  }
  return entries;
}

/** The object folders of the repository: its own and those it borrows from (`objects/info/alternates`). */
async function objectFolders(commonDir: string): Promise<string[]> {
  const own = path.join(commonDir, 'objects');
  const alternates = await readFile(path.join(own, 'info', 'alternates'), 'utf8').catch(() => '');
  const borrowed = alternates
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => path.resolve(own, line));
  return [own, ...borrowed];
}

/** The repository's history: every object file, with the host-specific `info/` files left out. */
async function historyEntries(commonDir: string): Promise<Entry[]> {
  const folders = await objectFolders(commonDir);
  const lists = await Promise.all(
    folders.map((folder) => filesBelow(folder, '.git/objects', (relative) => relative.startsWith('info/'))),
  );
  const seen = new Set<string>();
  return lists.flat().filter((entry) => !seen.has(entry.name) && seen.add(entry.name));
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
  const entries: Entry[] = [];
  for (const relative of paths) {
    if (!isSafeRepositoryPath(relative)) continue;
    const folder = path.posix.dirname(relative);
    if (folder !== '.' && !(await insideRoot(folder))) continue;
    const source = path.join(root, relative);
    const info = await lstat(source).catch(() => null);
    if (info?.isSymbolicLink()) {
      entries.push({
        name: relative,
        source,
        size: 0,
        mode: 0o777,
        mtime: info.mtime,
        linkTarget: await readlink(source),
      });
    } else if (info?.isFile()) {
      const mode = info.mode & 0o111 ? 0o755 : 0o644;
      entries.push({ name: relative, source, size: info.size, mode, mtime: info.mtime, linkTarget: null });
    }
  }
  return entries;
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

/** Adds one file to the archive, opened without following a link that replaced it since it was listed. */
async function addFile(pack: tar.Pack, entry: Entry, owner: ArchiveOwner): Promise<void> {
  const header = { name: entry.name, mode: entry.mode, mtime: entry.mtime, uid: owner.uid, gid: owner.gid };
  if (entry.linkTarget !== null) {
    await new Promise<void>((resolve, reject) =>
      pack.entry({ ...header, type: 'symlink', linkname: entry.linkTarget ?? '' }, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
    return;
  }
  const handle = await open(entry.source, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const size = (await handle.stat()).size;
    if (size !== entry.size) throw new Error(`${entry.source} changed while it was copied`);
    const sink = pack.entry({ ...header, type: 'file', size });
    await pipeline(createReadStream('', { fd: handle, autoClose: false }), sink);
  } finally {
    await handle.close();
  }
}

/**
 * A tar archive of the copy a conversation starts from, written while it is read: the history
 * (`.git/objects`, `.git/packed-refs`, `.git/shallow`) and, for the current branch, the working tree.
 * Returns the archive and its total size; `progress` is told the bytes sent as the archive is read.
 */
export async function snapshotArchive(
  repository: LocalRepository,
  owner: ArchiveOwner,
  progress: CopyProgress,
): Promise<{ archive: tar.Pack; totalBytes: number }> {
  const [history, refs, tree] = await Promise.all([
    historyEntries(repository.commonDir),
    packedRefs(repository.root),
    repository.withWorkingTree ? workingTreeEntries(repository.root) : Promise.resolve([]),
  ]);
  const shallow = await readFile(path.join(repository.commonDir, 'shallow')).catch(() => null);
  const entries = [...history, ...tree];
  const totalBytes = entries.reduce((sum, entry) => sum + entry.size, 0);
  const pack = tar.pack();
  const header = { mode: 0o644, uid: owner.uid, gid: owner.gid };
  void (async () => {
    // Folders first and with their owner: the engine would create missing ones as root.
    for (const folder of foldersOf(entries))
      pack.entry({ ...header, name: folder, type: 'directory', mode: 0o755 });
    pack.entry({ ...header, name: '.git/packed-refs' }, refs);
    if (shallow) pack.entry({ ...header, name: '.git/shallow' }, shallow);
    let sent = 0;
    for (const entry of entries) {
      await addFile(pack, entry, owner);
      sent += entry.size;
      progress(sent, totalBytes);
    }
    pack.finalize();
  })().catch((error: unknown) => pack.destroy(error instanceof Error ? error : new Error(String(error))));
  return { archive: pack, totalBytes };
}
