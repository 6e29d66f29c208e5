import { constants, type Dirent } from 'node:fs';
import { lstat, open, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';

/** A file of a repository's object store, as the copy takes it. */
export interface ObjectFile {
  /** Its path below `objects/`: `xx/<hex>` or `pack/pack-<hex>.<ext>`. */
  relative: string;
  /** Where it is on this machine. */
  source: string;
}

/** Something the copy left out, said to the user. */
export type CopyNotice = (message: string) => void;

/** A loose object: `xx/` and the rest of a SHA-1 (38 hex) or SHA-256 (62 hex) name. */
const LOOSE_OBJECT = /^[0-9a-f]{2}\/(?:[0-9a-f]{38}|[0-9a-f]{62})$/;
/** A pack and the files git keeps beside it (`.keep` is left out: it only stops this machine's repacks). */
const PACK_FILE = /^pack\/pack-(?:[0-9a-f]{40}|[0-9a-f]{64})\.(?:pack|idx|rev|bitmap|mtimes|promisor)$/;
/** The folders of `objects/` that can hold such files. */
const OBJECT_FOLDER = /^(?:[0-9a-f]{2}|pack)$/;

/** How deep alternates of alternates are followed: git's own limit. */
const ALTERNATES_DEPTH = 5;
/** An alternates file is a few paths; a larger one is not read past this. */
const ALTERNATES_MAX_BYTES = 64 * 1024;

/** Whether a path below `objects/` names an object-store file: a loose object or a pack file. */
export function isObjectStoreFile(relative: string): boolean {
  return LOOSE_OBJECT.test(relative) || PACK_FILE.test(relative);
}

/** `folder`'s entries when it is a real folder (not a link to one); null otherwise. */
async function realFolderEntries(folder: string): Promise<Dirent[] | null> {
  const info = await lstat(folder).catch(() => null);
  if (!info?.isDirectory()) return null;
  return readdir(folder, { withFileTypes: true });
}

/**
 * The object-store files of one `objects` folder. Nothing is read through a symbolic link: `withFileTypes`
 * reports a link as a link, and a linked folder or file is left out (and said).
 */
async function filesOf(objects: string, notice: CopyNotice): Promise<ObjectFile[]> {
  const top = await realFolderEntries(objects);
  if (!top) throw new Error(`${objects} is not a folder (a symbolic link is not followed)`);
  const files: ObjectFile[] = [];
  const links: string[] = [];
  for (const folder of top.filter((entry) => OBJECT_FOLDER.test(entry.name))) {
    if (folder.isSymbolicLink()) links.push(folder.name);
    if (!folder.isDirectory()) continue;
    for (const file of await readdir(path.join(objects, folder.name), { withFileTypes: true })) {
      const relative = `${folder.name}/${file.name}`;
      if (file.isSymbolicLink()) links.push(relative);
      if (file.isFile() && isObjectStoreFile(relative))
        files.push({ relative, source: path.join(objects, folder.name, file.name) });
    }
  }
  if (links.length > 0)
    notice(
      `Not copied (symbolic links in ${objects}): ${links.slice(0, 5).join(', ')}${links.length > 5 ? ', …' : ''}`,
    );
  return files;
}

/**
 * A small file of a git folder, read without following a link (nor waiting on a pipe): null when it is
 * missing or not a regular file; only its first `maxBytes` are read.
 */
export async function readGitFile(file: string, maxBytes: number): Promise<Buffer | null> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(
    () => null,
  );
  if (!handle) return null;
  try {
    if (!(await handle.stat()).isFile()) return null;
    const buffer = Buffer.alloc(maxBytes);
    const { bytesRead } = await handle.read(buffer, 0, maxBytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The lines of `objects/info/alternates` (not through a linked `info` folder); [] when there is none. */
async function alternatesLines(objects: string): Promise<string[]> {
  const info = path.join(objects, 'info');
  if (!(await lstat(info).catch(() => null))?.isDirectory()) return [];
  const text = (await readGitFile(path.join(info, 'alternates'), ALTERNATES_MAX_BYTES))?.toString('utf8');
  return (text ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
}

/**
 * The real path of an alternate (relative ones from `objects`, as git resolves them) when it is the `objects`
 * folder of a git repository (beside a `HEAD` file and a `refs` folder); else why it is refused.
 */
async function borrowedFolder(
  objects: string,
  line: string,
): Promise<{ folder: string } | { refused: string }> {
  if (line.startsWith('"')) return { refused: 'a quoted path' };
  const real = await realpath(path.resolve(objects, line)).catch(() => null);
  if (!real) return { refused: 'it does not exist' };
  const gitDir = path.dirname(real);
  const [folder, head, refs] = await Promise.all(
    [real, path.join(gitDir, 'HEAD'), path.join(gitDir, 'refs')].map((file) => lstat(file).catch(() => null)),
  );
  const isObjects =
    path.basename(real) === 'objects' && folder?.isDirectory() && head?.isFile() && refs?.isDirectory();
  return isObjects ? { folder: real } : { refused: 'not the objects folder of a git repository' };
}

/**
 * The object-store files of a repository (`commonDir`): loose objects and packs of its own `objects`
 * folder and of the ones it borrows from (`objects/info/alternates`, followed as git does up to 5 deep).
 * Only such files are taken, never through a symbolic link; an alternate that is not the `objects` folder
 * of a git repository is refused and said. The first file of a name wins.
 */
export async function objectStoreFiles(commonDir: string, notice: CopyNotice): Promise<ObjectFile[]> {
  const own = path.join(commonDir, 'objects');
  const seen = new Set<string>([own]);
  const folders = [own];
  let level = [own];
  for (let depth = 0; depth < ALTERNATES_DEPTH && level.length > 0; depth += 1) {
    const next: string[] = [];
    for (const objects of level) {
      for (const line of await alternatesLines(objects)) {
        const borrowed = await borrowedFolder(objects, line);
        if ('refused' in borrowed) {
          notice(
            `Not copied: the alternate object folder ${JSON.stringify(line)} of ${objects} (${borrowed.refused})`,
          );
        } else if (!seen.has(borrowed.folder)) {
          seen.add(borrowed.folder);
          next.push(borrowed.folder);
        }
      }
    }
    folders.push(...next);
    level = next;
  }
  const lists = await Promise.all(folders.map((folder) => filesOf(folder, notice)));
  const names = new Set<string>();
  return lists.flat().filter((file) => !names.has(file.relative) && names.add(file.relative));
}
