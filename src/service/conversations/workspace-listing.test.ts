import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HttpError } from '../http/errors';
import { localWorkspace, type LocalWorkspace } from '../../../test/support/workspaces';
import { resolveInWorkspace } from './workspace-access';
import { arrangeListing, listWorkspaceFolder, MAX_LISTED_FILES } from './workspace-listing';

describe('arrangeListing', () => {
  it('puts folders first, each group by name, under the listed folder', () => {
    const entries = [
      { name: 'b.txt', isFolder: false },
      { name: 'src', isFolder: true },
      { name: 'A.md', isFolder: false },
      { name: 'docs', isFolder: true },
    ];
    expect(arrangeListing('', entries)).toEqual(['docs/', 'src/', 'A.md', 'b.txt']);
    expect(arrangeListing('pkg/sub', entries)).toEqual([
      'pkg/sub/docs/',
      'pkg/sub/src/',
      'pkg/sub/A.md',
      'pkg/sub/b.txt',
    ]);
  });

  it('stops at 10 000 entries', () => {
    const many = Array.from({ length: MAX_LISTED_FILES + 5 }, (_, i) => ({ name: `f${i}`, isFolder: false }));
    expect(arrangeListing('', many)).toHaveLength(MAX_LISTED_FILES);
  });
});

describe('listWorkspaceFolder', () => {
  let ws: LocalWorkspace;
  const list = async (path: string) =>
    listWorkspaceFolder(ws, await resolveInWorkspace(ws, path, ['query', 'path']));

  beforeEach(async () => {
    ws = await localWorkspace();
    await ws.sh(
      [
        'git init -q .',
        'printf "build/\\n*.log\\nsecret-dir/\\n" > .gitignore',
        'mkdir -p src/nested node_modules/x __pycache__ .vscode build secret-dir',
        'touch README.md app.log src/main.ts src/debug.log src/nested/deep.txt',
        'ln -s src source-link && ln -s README.md readme-link',
      ].join(' && '),
    );
  });
  afterEach(() => ws.remove());

  it('lists one level without hidden folders and .gitignore matches', async () => {
    expect(await list('')).toEqual(['source-link/', 'src/', '.gitignore', 'README.md', 'readme-link']);
    expect(await list('src')).toEqual(['src/nested/', 'src/main.ts']);
    expect(await list('source-link/')).toEqual(['source-link/nested/', 'source-link/main.ts']);
  });

  it('lists everything outside a git repository', async () => {
    await ws.sh('rm -rf .git');
    expect(await list('')).toContain('build/');
    expect(await list('')).toContain('app.log');
  });

  it('answers 404 for a folder that is missing or a file', async () => {
    await expect(list('nope')).rejects.toMatchObject({
      status: 404,
      body: { detail: 'Directory not found: nope' },
    });
    const notFolder = await list('README.md').catch((e: unknown) => e);
    expect(notFolder).toBeInstanceOf(HttpError);
    expect(notFolder).toMatchObject({ status: 404, body: { detail: 'Not a directory: README.md' } });
  });
});
