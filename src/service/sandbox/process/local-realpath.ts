import { readlink, realpath } from 'node:fs/promises';
import { posix } from 'node:path';

const MAX_LINK_HOPS = 40;

/** `realpath -m` on this machine: links resolved, missing parts kept as named; null for a link loop. */
export async function localRealpath(path: string, hops = 0): Promise<string | null> {
  try {
    return await realpath(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return null;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
  const parent = await localRealpath(posix.dirname(path), hops);
  if (parent === null) return null;
  const candidate = posix.join(parent, posix.basename(path));
  const link = await readlink(candidate).catch(() => null);
  if (link === null) return candidate;
  return hops < MAX_LINK_HOPS ? localRealpath(posix.resolve(parent, link), hops + 1) : null;
}
