export type DiffLineKind = 'file' | 'hunk' | 'added' | 'removed' | 'context' | 'note';

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
}

const SEPARATOR = /^={3,}$/;

function kindOf(line: string, inHunk: boolean): DiffLineKind {
  if (line.startsWith('@@')) return 'hunk';
  if (!inHunk) return 'file';
  if (line.startsWith('+')) return 'added';
  if (line.startsWith('-')) return 'removed';
  if (line.startsWith('\\')) return 'note';
  return 'context';
}

/**
 * The lines of a unified diff, each with its kind for coloring. Lines before the first hunk are the file
 * header (`Index:`, `---`, `+++`); the `====` rule `diff` writes under `Index:` is left out.
 */
export function diffLines(diff: string): DiffLine[] {
  const lines = diff.replace(/\n$/, '').split('\n');
  const result: DiffLine[] = [];
  let inHunk = false;
  for (const line of lines) {
    if (line.startsWith('Index: ')) inHunk = false;
    else if (line.startsWith('@@')) inHunk = true;
    if (!inHunk && SEPARATOR.test(line)) continue;
    result.push({ kind: kindOf(line, inHunk), text: line });
  }
  return result;
}
