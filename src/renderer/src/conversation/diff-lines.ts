export type DiffLineKind = 'hunk' | 'added' | 'removed' | 'context' | 'note';

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
}

function kindOf(line: string): DiffLineKind {
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'added';
  if (line.startsWith('-')) return 'removed';
  if (line.startsWith('\\')) return 'note';
  return 'context';
}

/**
 * The lines of a unified diff from its first hunk on, each with its kind for coloring. The file header
 * before it (`Index:`, `---`, `+++`) is left out: the view names the file itself.
 */
export function diffLines(diff: string): DiffLine[] {
  const lines = diff.replace(/\n$/, '').split('\n');
  const firstHunk = lines.findIndex((line) => line.startsWith('@@'));
  if (firstHunk === -1) return lines.map((text) => ({ kind: 'context', text }));
  return lines.slice(firstHunk).map((text) => ({ kind: kindOf(text), text }));
}
