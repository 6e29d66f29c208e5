import type { FileSurvey, SurveyRoot } from './file-survey';

/** File operations on a sandbox, by absolute sandbox path: the one interface both providers implement. */

export type FileType = 'file' | 'directory' | 'symlink' | 'other';

export interface FileInfo {
  /** The absolute sandbox path (normalised). */
  path: string;
  name: string;
  type: FileType;
  size: number;
  /** Permission bits, with setuid/setgid/sticky (e.g. 0o755). */
  mode: number;
  uid: number;
  gid: number;
  mtimeMs: number;
  /** The link's own text, for symlinks in a listing; null otherwise. */
  linkTarget: string | null;
}

export interface WriteOptions {
  /** Permission bits for a new file (0o644); an existing file keeps its mode and owner. */
  mode?: number;
}

export interface ReadOptions {
  /** A file larger than this is refused with `too_large` before its bytes are held in memory. */
  maxBytes?: number;
}

export interface SandboxFiles {
  /** The bytes of a file, following symlinks. */
  read(path: string, options?: ReadOptions): Promise<Buffer>;
  /** Replaces a file's content (through symlinks), keeping mode and owner; creates missing parents. */
  write(path: string, data: Buffer | string, options?: WriteOptions): Promise<void>;
  /** The entries of a directory, one level, sorted by name; symlinks are not followed. */
  list(directory: string): Promise<FileInfo[]>;
  /** What a path is, following symlinks; null when nothing (or a dangling link) is there. */
  stat(path: string): Promise<FileInfo | null>;
  /** Extracts a tar archive into a directory (created when missing); file bytes arrive unchanged. */
  upload(directory: string, archive: NodeJS.ReadableStream | Buffer): Promise<void>;
  /** A tar archive of a file or directory, whose top entry is named after the path's last component. */
  download(path: string): Promise<NodeJS.ReadableStream>;
  /**
   * Everything below `roots` in one round trip, to answer many small reads at once (`SurveyedFiles`); null
   * where reads are cheap anyway (the host's files) or when the survey could not be taken.
   */
  survey(roots: SurveyRoot[]): Promise<FileSurvey | null>;
}

export type SandboxFileErrorCode =
  'invalid_path' | 'not_found' | 'is_directory' | 'not_directory' | 'too_large' | 'failed';

export class SandboxFileError extends Error {
  constructor(
    readonly code: SandboxFileErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SandboxFileError';
  }
}
