import { describe, expect, it } from 'vitest';
import { isSafeRepositoryPath } from './snapshot-archive';

describe('isSafeRepositoryPath', () => {
  it('accepts plain relative paths', () => {
    for (const path of ['a.txt', 'src/app.py', '.github/workflows/ci.yml', 'a/.gitignore', 'dir/..x'])
      expect(isSafeRepositoryPath(path), path).toBe(true);
  });

  it('refuses absolute paths, dot segments, anything in .git, empty segments, NUL and backslashes', () => {
    for (const path of [
      '',
      '/etc/passwd',
      '../escape',
      'a/../../b',
      './a',
      '.git/hooks/pre-commit',
      'sub/.GIT/config',
      'a//b',
      'a/',
      'a\0b',
      'a\\..\\b',
    ])
      expect(isSafeRepositoryPath(path), JSON.stringify(path)).toBe(false);
  });
});
