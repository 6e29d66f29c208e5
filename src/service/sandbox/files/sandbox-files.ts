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

/** A folder (or file) to survey, `depth` levels down; with `read`, the bytes of its small regular files too. */
export interface SurveyRoot {
  path: string;
  depth: number;
  read: boolean;
}

/**
 * What stood in a sandbox's folders at one moment, taken in one round trip: every entry down to each root's
 * depth and the bytes of its small files. It answers the start pipeline's many small questions (is there a
 * setup script, which microagents, is there a hook) without asking the sandbox each time.
 */
export interface FileSurvey {
  roots: SurveyRoot[];
  /** Every entry found, each root's own included, by normalised path; a missing root has none. */
  entries: Map<string, FileInfo>;
  /** The bytes of read roots' regular files up to SURVEY_MAX_FILE_BYTES each. */
  contents: Map<string, Buffer>;
}

export interface WriteOptions {
  /** Permission bits for a new file (0o644); an existing file keeps its mode and owner. */
  mode?: number;
}

/** What a read holds at most when its caller names no smaller cap: a sandbox's files can be any size. */
export const DEFAULT_MAX_READ_BYTES = 16 * 1024 * 1024;

export interface ReadOptions {
  /**
   * A file larger than this (DEFAULT_MAX_READ_BYTES when not given) is refused with `too_large`, counted
   * while it is read, so its bytes are never held past the cap. Larger files are streamed (`file-stream.ts`).
   */
  maxBytes?: number;
}

export interface SandboxFiles {
  /** The bytes of a file, following symlinks, at most `maxBytes` of them. */
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
  'invalid_path' | 'not_found' | 'is_directory' | 'not_directory' | 'not_file' | 'too_large' | 'failed';

export class SandboxFileError extends Error {
  constructor(
    readonly code: SandboxFileErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SandboxFileError';
  }
}
