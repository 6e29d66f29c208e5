import { createPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { diffLines } from './diff-lines';

describe('diffLines', () => {
  it('classifies the lines of a unified diff from the first hunk on', () => {
    const patch = createPatch('/workspace/project/a.py', 'one\ntwo\nthree\n', 'one\n2\nthree\n');
    expect(diffLines(patch)).toEqual([
      { kind: 'hunk', text: '@@ -1,3 +1,3 @@' },
      { kind: 'context', text: ' one' },
      { kind: 'removed', text: '-two' },
      { kind: 'added', text: '+2' },
      { kind: 'context', text: ' three' },
    ]);
  });

  it('reads lines that look like file headers inside a hunk as changes', () => {
    expect(diffLines('@@ -1 +1 @@\n--- old\n+++ new\n\\ No newline at end of file')).toEqual([
      { kind: 'hunk', text: '@@ -1 +1 @@' },
      { kind: 'removed', text: '--- old' },
      { kind: 'added', text: '+++ new' },
      { kind: 'note', text: '\\ No newline at end of file' },
    ]);
  });

  it('shows text without a hunk as it is', () => {
    expect(diffLines('no changes')).toEqual([{ kind: 'context', text: 'no changes' }]);
  });
});
