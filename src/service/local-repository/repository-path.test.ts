import { describe, expect, it } from 'vitest';
import { isNtfsDotGit, isSafeRepositoryPath } from './repository-path';

const u200c = '\u200c';

describe('isSafeRepositoryPath', () => {
  it('accepts plain relative paths, and names that only look like .git', () => {
    for (const path of [
      'a.txt',
      'src/app.py',
      '.github/workflows/ci.yml',
      'a/.gitignore',
      '.gitmodules',
      'dir/..x',
      '.gitx',
      'git',
      'git~2',
      'gitx~1',
      '.git x',
      'x.git',
      'a/b.git/c',
      'name:with:colons',
      'été/ünïcode.txt',
    ])
      expect(isSafeRepositoryPath(path), JSON.stringify(path)).toBe(true);
  });

  it('refuses absolute paths, dot segments, empty segments, NUL, backslashes and drive prefixes', () => {
    for (const path of [
      '',
      '/etc/passwd',
      '../escape',
      'a/../../b',
      './a',
      'a/.',
      'a//b',
      'a/',
      'a\0b',
      'a\\..\\b',
      'a\\.git\\hooks\\x',
      'C:/Windows',
      'c:x',
    ])
      expect(isSafeRepositoryPath(path), JSON.stringify(path)).toBe(false);
  });

  // The names git's t1014-read-tree-confusing refuses with core.protectHFS and core.protectNTFS, at the end
  // of a path and as a folder.
  const confusing = [
    '.',
    '..',
    '.git',
    '.GIT',
    `${u200c}.Git`,
    `.gI${u200c}T`,
    `.GiT${u200c}`,
    'git~1',
    '.git. ',
    '.git...:alternate-stream',
    // More spellings git's is_ntfs_dotgit and is_hfs_dotgit refuse.
    'GIT~1',
    'Git~1...',
    '.git.',
    '.git ',
    '.git::$INDEX_ALLOCATION',
    '.git:$DATA',
    `.g${u200c}it`,
    `.gi\u200dt`,
    `\ufeff.git`,
    `.git\u206f`,
  ];
  it.each(confusing)('refuses %j at the end of a path and as a folder', (name) => {
    expect(isSafeRepositoryPath(name)).toBe(false);
    expect(isSafeRepositoryPath(`sub/${name}`)).toBe(false);
    expect(isSafeRepositoryPath(`${name}/hooks/post-checkout`)).toBe(false);
  });

  // git's t0060-path-utils `is_dotgitmodules` table: refused as links, accepted as files.
  const dotgitmodules = [
    '.gitmodules',
    `.git${u200c}modules`,
    '.Gitmodules',
    '.gitmoduleS',
    '.gitmodules ',
    '.gitmodules.',
    '.gitmodules  ',
    '.gitmodules. ',
    '.gitmodules .',
    '.gitmodules..',
    '.gitmodules . . ',
    '.gitmodules ...',
    'GITMOD~1',
    'gitmod~1',
    'GITMOD~2',
    'gitmod~3',
    'GITMOD~4',
    'GITMOD~1 ',
    'gitmod~2.',
    'gitmod~4 . ',
    'GI7EBA~1',
    'gi7eba~9',
    'GI7EB~10',
    'GI7EB~11',
    'GI7EB~99',
    'GI7E~100',
    'GI7E~101',
    'GI7E~999',
    '.gitmodules:$DATA',
    'gitmod~4 . :$DATA',
  ];
  it.each(dotgitmodules)('refuses a link named %j', (name) => {
    expect(isSafeRepositoryPath(name, { link: true })).toBe(false);
    expect(isSafeRepositoryPath(`sub/${name}`, { link: true })).toBe(false);
    expect(isSafeRepositoryPath(name)).toBe(true);
  });

  const notDotgitmodules = [
    '.gitmodules x',
    '.gitmodules .x',
    ' .gitmodules',
    '..gitmodules',
    'gitmodules',
    '.gitmodule',
    '.gitmodules x ',
    'GI7EBA~',
    'GI7EBA~0',
    'GI7EBA~~1',
    'GI7EBA~X',
    'Gx7EBA~1',
    'GI7EBX~1',
    'GI7EB~1',
    'GI7EB~01',
    'GI7EB~1X',
    '.gitmodules,:$DATA',
  ];
  it.each(notDotgitmodules)('accepts a link named %j', (name) => {
    expect(isSafeRepositoryPath(name, { link: true })).toBe(true);
  });

  it('refuses links named as the other files git reads from the tree, in their NTFS and HFS spellings', () => {
    for (const name of [
      '.gitattributes',
      '.GITATTRIBUTES ',
      'gitatt~1',
      'GI7D29~1',
      '.gitignore',
      'GITIGN~1',
      'gi250a~2',
      '.mailmap',
      'MAILMA~1',
      `.mail${u200c}map`,
    ]) {
      expect(isSafeRepositoryPath(name, { link: true }), name).toBe(false);
      expect(isSafeRepositoryPath(name), name).toBe(true);
    }
  });
});

describe('isNtfsDotGit', () => {
  it('matches only .git and git~1 followed by spaces, periods, a stream or a separator', () => {
    expect(['.git', 'GIT~1', '.git/x', '.git\\x', '.git . :x'].map(isNtfsDotGit)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['.gitx', 'git~2', 'git~10', '.git x', ' .git', 'git~'].map(isNtfsDotGit)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
