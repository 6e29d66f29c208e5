import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { readLimited } from '../sandbox/files/file-stream';
import { SandboxFileError, type FileInfo, type SandboxFiles } from '../sandbox/files/sandbox-files';

export interface FolderEntry {
  name: string;
  /**
   * Symlinks to files count as files. Symlinked folders are `other`, so a walk never loops; so are dangling
   * links and special files.
   */
  kind: 'file' | 'directory' | 'other';
  size: number;
}

/** The little the microagent loader needs of a file system: one folder level at a time, and file bytes. */
export interface FolderReader {
  /** The entries of a folder, or null when there is no folder at `dir`. */
  list(dir: string): Promise<FolderEntry[] | null>;
  /** A file's bytes, refused (`too_large`) once they pass `maxBytes`, however large it was when listed. */
  read(path: string, maxBytes: number): Promise<Buffer>;
  join(dir: string, name: string): string;
}

async function sandboxEntry(files: SandboxFiles, info: FileInfo): Promise<FolderEntry> {
  if (info.type !== 'symlink') {
    const kind = info.type === 'file' || info.type === 'directory' ? info.type : 'other';
    return { name: info.name, kind, size: info.size };
  }
  const target = await files.stat(info.path);
  return { name: info.name, kind: target?.type === 'file' ? 'file' : 'other', size: target?.size ?? 0 };
}

/** Folders inside a sandbox, by absolute sandbox path. */
export function sandboxFolders(files: SandboxFiles): FolderReader {
  return {
    async list(dir) {
      try {
        const infos = await files.list(dir);
        return await Promise.all(infos.map((info) => sandboxEntry(files, info)));
      } catch (error) {
        if (error instanceof SandboxFileError && ['not_found', 'not_directory'].includes(error.code))
          return null;
        throw error;
      }
    },
    read: (path, maxBytes) => files.read(path, { maxBytes }),
    join: (dir, name) => posix.join(dir, name),
  };
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** Folders on this machine (the user's microagent folders), through node:fs. */
export const hostFolders: FolderReader = {
  async list(dir) {
    let dirents;
    try {
      dirents = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    return Promise.all(
      dirents.map(async (dirent): Promise<FolderEntry> => {
        const stats = await stat(join(dir, dirent.name)).catch((error: unknown) => {
          if (isMissing(error)) return null;
          throw error;
        });
        const kind = stats?.isFile()
          ? 'file'
          : stats?.isDirectory() && !dirent.isSymbolicLink()
            ? 'directory'
            : 'other';
        return { name: dirent.name, kind, size: stats?.size ?? 0 };
      }),
    );
  },
  read: (path, maxBytes) => readLimited(createReadStream(path), maxBytes, path),
  join,
};
