/** File-system error codes that mean no space (or quota) is left. */
const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);
/** SQLite's primary result code SQLITE_FULL; `node:sqlite` errors carry it as `errcode` (maybe extended). */
const SQLITE_FULL = 13;

/** Whether `error` says the disk holding the data folder is full. */
export function isDiskFull(error: unknown): boolean {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  if (code === 'ERR_SQLITE_ERROR') return typeof errcode === 'number' && (errcode & 0xff) === SQLITE_FULL;
  return typeof code === 'string' && DISK_FULL_CODES.has(code);
}
