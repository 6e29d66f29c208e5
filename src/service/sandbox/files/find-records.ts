import type { FileInfo, FileType } from './sandbox-files';
import { pathName } from './sandbox-path';

/** GNU find: type, octal mode, uid, gid, size, mtime, link text, path; each field NUL-terminated. */
export const FIND_FORMAT = '%y\\0%m\\0%U\\0%G\\0%s\\0%T@\\0%l\\0%p\\0';
/** How many fields one FIND_FORMAT record has. */
export const FIND_FIELDS = 8;

/** The records `find -printf FIND_FORMAT` printed. */
export function parseFindRecords(output: string): FileInfo[] {
  const fields = output.split('\0');
  const records: FileInfo[] = [];
  for (let start = 0; start + FIND_FIELDS <= fields.length; start += FIND_FIELDS) {
    records.push(findRecord(fields.slice(start, start + FIND_FIELDS)));
  }
  return records;
}

/** One record from its FIND_FIELDS fields. */
export function findRecord(fields: string[]): FileInfo {
  const [type = '', mode = '', uid = '', gid = '', size = '', mtime = '', link = '', path = ''] = fields;
  return {
    path,
    name: pathName(path),
    type: fileType(type),
    size: Number(size),
    mode: parseInt(mode, 8),
    uid: Number(uid),
    gid: Number(gid),
    mtimeMs: Math.round(Number(mtime) * 1000),
    linkTarget: type === 'l' ? link : null,
  };
}

function fileType(findType: string): FileType {
  if (findType === 'f') return 'file';
  if (findType === 'd') return 'directory';
  if (findType === 'l') return 'symlink';
  return 'other';
}
