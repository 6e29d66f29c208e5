import { describe, expect, it } from 'vitest';
import { diffLines } from './diff-lines';
import { diffStat, unifiedDiff } from './unified-diff';

describe('unifiedDiff', () => {
  it('shows a changed line as removed and added, with its context', () => {
    const diff = unifiedDiff(
      'app/app.py',
      'def add(a, b):\n    return a - b\n',
      'def add(a, b):\n    return a + b\n',
    );
    expect(diffLines(diff)).toEqual([
      { kind: 'hunk', text: '@@ -1,2 +1,2 @@' },
      { kind: 'context', text: ' def add(a, b):' },
      { kind: 'removed', text: '-    return a - b' },
      { kind: 'added', text: '+    return a + b' },
    ]);
    expect(diffStat(diff)).toEqual({ added: 1, removed: 1 });
  });

  it('shows a new file as all added and a deleted one as all removed', () => {
    expect(diffStat(unifiedDiff('new.txt', '', 'one\ntwo\n'))).toEqual({ added: 2, removed: 0 });
    expect(diffStat(unifiedDiff('old.txt', 'one\n', ''))).toEqual({ added: 0, removed: 1 });
  });

  it('is empty when nothing changed', () => {
    expect(unifiedDiff('same.txt', 'x\n', 'x\n')).toBe('');
  });
});
