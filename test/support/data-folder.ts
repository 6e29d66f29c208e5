import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : entry.isFile() ? [full] : [];
  });
}

/** `file: value` for each value found in the bytes of any file under `dir` (SQLite db, WAL, logs...). */
export function valuesFoundInFiles(dir: string, values: string[]): string[] {
  return filesUnder(dir).flatMap((file) => {
    const bytes = readFileSync(file);
    return values
      .filter((value) => bytes.includes(Buffer.from(value, 'utf8')))
      .map((value) => `${path.relative(dir, file)}: ${value}`);
  });
}
