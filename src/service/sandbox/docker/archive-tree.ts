import { createReadStream } from 'node:fs';
import { lstat, readdir, readlink } from 'node:fs/promises';
import path from 'node:path';
import type { Pack } from 'tar-stream';

/** Adds one file of the host to a tar archive under `name` (a path relative to where it is extracted). */
export function addFile(
  archive: Pack,
  name: string,
  source: string,
  mode: number,
  size: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const entry = archive.entry({ name, mode, size }, (error) => (error ? reject(error) : resolve()));
    createReadStream(source).on('error', reject).pipe(entry);
  });
}

/** Adds a folder's files, folders and symlinks under `name`. */
export async function addTree(archive: Pack, name: string, source: string): Promise<void> {
  const info = await lstat(source);
  if (info.isSymbolicLink()) {
    archive.entry({ name, type: 'symlink', linkname: await readlink(source) });
  } else if (info.isDirectory()) {
    archive.entry({ name, type: 'directory', mode: 0o755 });
    for (const child of (await readdir(source)).sort()) {
      await addTree(archive, `${name}/${child}`, path.join(source, child));
    }
  } else if (info.isFile()) {
    await addFile(archive, name, source, info.mode & 0o777, info.size);
  }
}
