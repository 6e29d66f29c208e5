import { HttpError } from '../http/errors';

/** Error codes of SQLite and of the file system that mean no space (or quota) is left. */
const DISK_FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

/** Whether `error` says the disk holding the data folder is full. */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && DISK_FULL_CODES.has(code);
}

/** Answers 507 `{"detail":"Not enough disk space in the data folder <dir>: free some space and retry."}`. */
export class DiskFull extends HttpError {
  constructor(dataDir: string) {
    super(507, { detail: `Not enough disk space in the data folder ${dataDir}: free some space and retry.` });
  }
}
