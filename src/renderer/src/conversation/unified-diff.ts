import { createTwoFilesPatch } from 'diff';

const CONTEXT_LINES = 3;

/**
 * The unified diff of a file from HEAD (`original`) to the working tree (`modified`); `""` stands for a
 * side where the file does not exist. Empty when both are the same.
 */
export function unifiedDiff(path: string, original: string, modified: string): string {
  if (original === modified) return '';
  return createTwoFilesPatch(`a/${path}`, `b/${path}`, original, modified, '', '', {
    context: CONTEXT_LINES,
  });
}

/** Lines added and removed, as a reviewer reads them at a glance (`+3 −1`). */
export function diffStat(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    if (line.startsWith('+')) added += 1;
    else if (line.startsWith('-')) removed += 1;
  }
  return { added, removed };
}
