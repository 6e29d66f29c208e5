import { posix } from 'node:path';
import { SandboxFileError } from './sandbox-files';

/** Checks that `path` is an absolute sandbox path and normalises it (no `.`/`..`, no trailing slash). */
export function sandboxPath(path: string): string {
  if (!path.startsWith('/') || path.includes('\0')) {
    throw new SandboxFileError('invalid_path', `Not an absolute sandbox path: ${path}`);
  }
  const normalized = posix.normalize(path);
  return normalized === '/' ? normalized : normalized.replace(/\/+$/, '');
}

export function pathName(path: string): string {
  return posix.basename(path) || path;
}
