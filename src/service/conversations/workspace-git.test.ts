import { afterEach, describe, expect, it } from 'vitest';
import { localWorkspace, type LocalWorkspace } from '../../../test/support/workspaces';
import { type ErrorLocation, resolveInWorkspace as resolve } from './workspace-access';
import { gitChanges, gitDiff as gitDiffAt, parseStatus } from './workspace-git';
import { MAX_OPENED_FILE_BYTES } from './workspace-text';

const LOC: ErrorLocation = ['query', 'path'];
const gitDiff = (ws: LocalWorkspace, file: Awaited<ReturnType<typeof resolve>>) =>
  gitDiffAt(ws, file, file.relative, LOC);

describe('parseStatus', () => {
  it('maps porcelain codes to M/A/D/R/U and reports a rename at its new path', () => {
    const output = [
      ' M changed.ts',
      'M  staged.ts',
      'A  added.ts',
      '?? untracked.txt',
      ' D removed.ts',
      'D  unstaged-removal.ts',
      'R  new name.ts',
      'old name.ts',
      'UU conflict.ts',
      'AA both-added.ts',
      'C  copy.ts',
      'copied-from.ts',
      '',
    ].join('\0');
    expect(parseStatus(output)).toEqual([
      { status: 'M', path: 'changed.ts' },
      { status: 'M', path: 'staged.ts' },
      { status: 'A', path: 'added.ts' },
      { status: 'A', path: 'untracked.txt' },
      { status: 'D', path: 'removed.ts' },
      { status: 'D', path: 'unstaged-removal.ts' },
      { status: 'R', path: 'new name.ts' },
      { status: 'U', path: 'conflict.ts' },
      { status: 'U', path: 'both-added.ts' },
      { status: 'A', path: 'copy.ts' },
    ]);
    expect(parseStatus('')).toEqual([]);
  });
});

describe('git changes and diffs of a workspace', () => {
  let ws: LocalWorkspace | null = null;
  afterEach(() => ws?.remove());

  const editedRepository = [
    'git init -q .',
    'printf "one\\n" > kept.txt && printf "old\\n" > edited.txt && printf "bye\\n" > gone.txt',
    'mkdir -p sub && printf "a\\n" > sub/moved-from.txt',
    'git add -A && git commit -qm initial',
    'printf "new\\n" > edited.txt && rm gone.txt && printf "hi\\n" > "new file.txt"',
    'git mv sub/moved-from.txt sub/moved-to.txt',
  ].join(' && ');

  it('reports the changes of a workspace that is the repository', async () => {
    const workspace = await localWorkspace();
    ws = workspace;
    await workspace.sh(editedRepository);
    const changes = await gitChanges(workspace);
    expect(changes.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { status: 'M', path: 'edited.txt' },
      { status: 'D', path: 'gone.txt' },
      { status: 'A', path: 'new file.txt' },
      { status: 'R', path: 'sub/moved-to.txt' },
    ]);
    const diff = async (path: string) =>
      gitDiff(workspace, await resolve(workspace, path, ['query', 'path']));
    expect(await diff('edited.txt')).toEqual({ modified: 'new\n', original: 'old\n' });
    expect(await diff('gone.txt')).toEqual({ modified: '', original: 'bye\n' });
    expect(await diff('new file.txt')).toEqual({ modified: 'hi\n', original: '' });
    expect(await diff('kept.txt')).toEqual({ modified: 'one\n', original: 'one\n' });
  });

  it('uses the cloned repository inside the workspace, with paths relative to the workspace', async () => {
    ws = await localWorkspace('repo');
    await ws.sh(`mkdir repo && cd repo && ${editedRepository} && cd .. && printf x > outside.txt`);
    expect((await gitChanges(ws)).map((c) => c.path).sort()).toEqual([
      'repo/edited.txt',
      'repo/gone.txt',
      'repo/new file.txt',
      'repo/sub/moved-to.txt',
    ]);
    const path = await resolve(ws, 'repo/edited.txt', ['query', 'path']);
    expect(await gitDiff(ws, path)).toEqual({ modified: 'new\n', original: 'old\n' });
    await expect(gitDiff(ws, await resolve(ws, 'outside.txt', ['query', 'path']))).rejects.toMatchObject({
      status: 404,
      body: { detail: 'outside.txt is not in the git repository' },
    });
  });

  it('answers 404 without a repository, even inside a repository above the workspace', async () => {
    ws = await localWorkspace();
    await ws.sh('cd .. && git init -q .');
    await expect(gitChanges(ws)).rejects.toMatchObject({
      status: 404,
      body: { detail: 'Not a git repository' },
    });
    const file = await resolve(ws, 'a.txt', ['query', 'path']);
    await expect(gitDiff(ws, file)).rejects.toMatchObject({ status: 404 });
  });

  it('answers "" for the original of a repository without commits', async () => {
    ws = await localWorkspace();
    await ws.sh('git init -q . && printf "draft" > a.txt');
    expect(await gitChanges(ws)).toEqual([{ status: 'A', path: 'a.txt' }]);
    const file = await resolve(ws, 'a.txt', ['query', 'path']);
    expect(await gitDiff(ws, file)).toEqual({ modified: 'draft', original: '' });
  });

  it('refuses with 422 a file over 5 MiB in the worktree or at HEAD, never reading it whole', async () => {
    ws = await localWorkspace();
    const big = MAX_OPENED_FILE_BYTES + 1;
    await ws.sh(
      `git init -q . && head -c ${big} /dev/zero > big.bin && git add big.bin && git commit -qm big`,
    );
    await ws.sh(`head -c ${big} /dev/zero > grown.bin`);
    const tooLarge = (path: string) => ({
      detail: [
        {
          type: 'value_error',
          loc: ['query', 'path'],
          msg: `Value error, File is too large to diff (max ${MAX_OPENED_FILE_BYTES} bytes)`,
          input: path,
        },
      ],
    });
    // Committed too large, then emptied: only HEAD holds the large blob.
    await ws.sh(': > big.bin');
    await expect(gitDiff(ws, await resolve(ws, 'big.bin', LOC))).rejects.toMatchObject(tooLarge('big.bin'));
    await expect(gitDiff(ws, await resolve(ws, 'grown.bin', LOC))).rejects.toMatchObject(
      tooLarge('grown.bin'),
    );
  });
});
