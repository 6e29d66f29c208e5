import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import type { GitChange } from '../../src/shared/api/workspace';
import { makeLocalGitRepo } from '../support/local-git-repo';
import type { TestService } from '../support/service';
import { dockerSkipReason, execIn } from '../sandbox/support';
import { startLocalConversations, type LocalConversations } from './local-conversation';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the local repository tests: ${skip}`);
const isRoot = process.getuid?.() === 0;
if (!isRoot) console.warn('Skipping the failed-rename rollback test: only root can make a file unchangeable');

describe.skipIf(skip !== null)('conversations on a repository of this machine', () => {
  let local: LocalConversations;
  let service: TestService;

  beforeAll(async () => {
    local = await startLocalConversations();
    service = local.service;
  });

  afterAll(async () => {
    await local?.close();
  });

  const converse = (body: Record<string, unknown>, command: string) => local.converse(body, command);

  it('answers 422 naming a relative path, a folder that is not a git repository and an unknown branch', async () => {
    const repo = makeLocalGitRepo({ 'a.txt': 'a\n' });
    const plain = makeLocalGitRepo({}, 'plain');
    const create = (body: Record<string, unknown>) => service.api('POST', '/api/conversations', { body });
    const relative = await create({ repository: './project' });
    expect(relative.status).toBe(422);
    expect(JSON.stringify(relative.json)).toContain('is relative');
    const notGit = await create({ repository: `${plain.root}/..` });
    expect(notGit.status).toBe(422);
    expect(JSON.stringify(notGit.json)).toContain('is not a git repository');
    const missing = await create({ repository: '/no/such/folder' });
    expect(JSON.stringify(missing.json)).toContain('/no/such/folder does not exist');
    const branch = await create({ repository: repo.root, selected_branch: 'nope' });
    expect(branch.status).toBe(422);
    expect(branch.json).toMatchObject({
      detail: [{ loc: ['body', 'selected_branch'], msg: `Value error, unknown branch nope in ${repo.root}` }],
    });
    const provider = await create({ repository: repo.root, git_provider: 'github' });
    expect(provider.status).toBe(422);
  });

  it('copies history, uncommitted and untracked files (not ignored ones), reviews only the agent’s work, and leaves the user’s tree alone', async () => {
    const repo = makeLocalGitRepo({ 'app.py': 'v1\n', '.gitignore': 'build/\n', 'lib/util.py': 'u1\n' });
    repo.write('app.py', 'v1\nuncommitted\n');
    repo.write('notes.md', 'untracked\n');
    repo.write('build/out.bin', 'ignored\n');
    repo.git('commit', '-q', '--allow-empty', '-m', 'Second commit');
    const before = repo.fingerprint();
    const { id, sandbox, info } = await converse(
      { repository: `file://${repo.root}` },
      'echo agent >> lib/util.py && git add -A && git commit -q -m "Agent commit" && echo new > added.txt && rm notes.md',
    );
    expect(info).toMatchObject({
      selected_repository: repo.root,
      selected_branch: 'main',
      git_provider: null,
    });
    const copy = await execIn(
      sandbox,
      'cd /workspace/project/project && git log --format=%s && cat app.py && ls build 2>&1; git status --short',
    );
    expect(copy.stdout).toContain('Agent commit\nUncommitted changes in the working tree');
    expect(copy.stdout).toContain('Second commit\nFirst commit\n');
    expect(copy.stdout).toContain('v1\nuncommitted\n');
    expect(copy.stdout).toContain('No such file');
    const changes = (await service.api('GET', `/api/conversations/${id}/git/changes`)).json as GitChange[];
    expect(changes.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { status: 'A', path: 'project/added.txt' },
      { status: 'M', path: 'project/lib/util.py' },
      { status: 'D', path: 'project/notes.md' },
    ]);
    const diff = await service.api('GET', `/api/conversations/${id}/git/diff?path=project/lib/util.py`);
    expect(diff.json).toEqual({ original: 'u1\n', modified: 'u1\nagent\n' });
    expect(repo.fingerprint()).toBe(before);
  });

  it('runs two conversations on one repository at once, each on its own copy', async () => {
    const repo = makeLocalGitRepo({ 'shared.txt': 'start\n' });
    const before = repo.fingerprint();
    const [first, second] = await Promise.all([
      converse({ repository: repo.root }, 'echo first > shared.txt'),
      converse({ repository: repo.root }, 'echo second > shared.txt'),
    ]);
    expect(first.sandbox).not.toBe(second.sandbox);
    expect((await execIn(first.sandbox, 'cat /workspace/project/project/shared.txt')).stdout).toBe('first\n');
    expect((await execIn(second.sandbox, 'cat /workspace/project/project/shared.txt')).stdout).toBe(
      'second\n',
    );
    expect(repo.fingerprint()).toBe(before);
  });

  it('exports the agent’s commits and uncommitted work as a new branch', async () => {
    const repo = makeLocalGitRepo({ 'a.txt': 'a\n' });
    const { id } = await converse(
      { repository: repo.root },
      'echo b > b.txt && git add b.txt && git commit -q -m "Add b" && echo c > c.txt',
    );
    const exportTo = (body: Record<string, unknown>) =>
      service.api('POST', `/api/conversations/${id}/local-repository/export`, { body });
    for (const bad of ['-x', 'a..b', 'x.lock', 'a b', 'refs/../x', '']) {
      expect((await exportTo({ mode: 'branch', branch: bad })).status, bad).toBe(422);
    }
    expect((await exportTo({ mode: 'branch', branch: 'main' })).json).toEqual({
      detail: 'Branch main already exists',
    });
    const exported = await exportTo({ mode: 'branch', branch: 'dockhand/add-files', message: 'Add c' });
    expect(exported.status, JSON.stringify(exported.json)).toBe(200);
    const result = exported.json as { commit: string; commits: number; branch: string };
    expect(result).toMatchObject({
      mode: 'branch',
      repository: repo.root,
      branch: 'dockhand/add-files',
      commits: 2,
    });
    expect(repo.git('log', '--format=%s', 'dockhand/add-files')).toBe('Add c\nAdd b\nFirst commit\n');
    expect(repo.git('rev-parse', 'dockhand/add-files').trim()).toBe(result.commit);
    expect(repo.git('show', 'dockhand/add-files:c.txt')).toBe('c\n');
    expect(repo.git('status', '--porcelain')).toBe('');
    expect((await exportTo({ mode: 'branch', branch: 'dockhand/add-files' })).status).toBe(409);
  });

  it('applies the agent’s work to the working tree, and changes nothing when a file changed on both sides', async () => {
    const repo = makeLocalGitRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'gone.txt': 'gone\n' });
    const { id } = await converse(
      { repository: repo.root },
      'echo a2 > a.txt && echo b2 > b.txt && rm gone.txt && mkdir -p new/dir && echo n > new/dir/n.txt',
    );
    const apply = () =>
      service.api('POST', `/api/conversations/${id}/local-repository/export`, { body: { mode: 'apply' } });
    repo.write('b.txt', 'user edit\n');
    const before = repo.fingerprint();
    const conflict = await apply();
    expect(conflict.status).toBe(409);
    expect(conflict.json).toMatchObject({ conflicts: ['b.txt'] });
    expect((conflict.json as { detail: string }).detail).toContain('b.txt');
    expect(repo.fingerprint()).toBe(before);

    repo.write('b.txt', 'b\n');
    const applied = await apply();
    expect(applied.status, JSON.stringify(applied.json)).toBe(200);
    expect((applied.json as { files: unknown[] }).files).toEqual(
      expect.arrayContaining([
        { path: 'a.txt', status: 'M' },
        { path: 'b.txt', status: 'M' },
        { path: 'gone.txt', status: 'D' },
        { path: 'new/dir/n.txt', status: 'A' },
      ]),
    );
    expect([repo.read('a.txt'), repo.read('b.txt'), repo.read('new/dir/n.txt')]).toEqual([
      'a2\n',
      'b2\n',
      'n\n',
    ]);
    expect(existsSync(`${repo.root}/gone.txt`)).toBe(false);
  });

  /** Makes `file` unchangeable for this process (chattr +i as root, who ignores permissions) until `unlock`. */
  function lock(file: string): () => void {
    if (isRoot) {
      execFileSync('chattr', ['+i', file]);
      return () => execFileSync('chattr', ['-i', file]);
    }
    chmodSync(file, 0o555);
    return () => chmodSync(file, 0o755);
  }
  const leftovers = (root: string) =>
    readdirSync(root, { recursive: true }).filter((name) => String(name).includes('.dockhand-'));

  it('changes nothing, and leaves no temporary file, when a write fails while staging the work', async () => {
    const repo = makeLocalGitRepo({ 'a.txt': 'a\n', 'locked/f.txt': 'f\n' });
    const { id } = await converse(
      { repository: repo.root },
      'echo a2 > a.txt && echo f2 > locked/f.txt && echo n > locked/new.txt',
    );
    const before = repo.fingerprint();
    const unlock = lock(`${repo.root}/locked`);
    try {
      const failed = await local.exportWork(id, { mode: 'apply' });
      expect(failed.status, JSON.stringify(failed.json)).toBe(409);
      expect((failed.json as { detail: string }).detail).toMatch(
        /Writing locked\/.* failed, so nothing was applied/,
      );
    } finally {
      unlock();
    }
    expect(repo.fingerprint()).toBe(before);
    expect(leftovers(repo.root)).toEqual([]);
    expect((await local.exportWork(id, { mode: 'apply' })).status).toBe(200);
    expect([repo.read('a.txt'), repo.read('locked/f.txt'), repo.read('locked/new.txt')]).toEqual([
      'a2\n',
      'f2\n',
      'n\n',
    ]);
  });

  it.skipIf(!isRoot)(
    'puts every file back when a rename fails after others were renamed into place',
    async () => {
      const repo = makeLocalGitRepo({ 'a.txt': 'a\n', 'm/b.txt': 'b\n', 'z.txt': 'z\n' });
      const { id } = await converse(
        { repository: repo.root },
        'echo a2 > a.txt && echo b2 > m/b.txt && rm z.txt && echo n > m/new.txt',
      );
      const before = repo.fingerprint();
      // z.txt is last: a.txt, m/b.txt and m/new.txt are in place when its removal fails.
      const unlock = lock(`${repo.root}/z.txt`);
      try {
        const failed = await local.exportWork(id, { mode: 'apply' });
        expect(failed.status, JSON.stringify(failed.json)).toBe(409);
        expect((failed.json as { detail: string }).detail).toContain('nothing was applied');
      } finally {
        unlock();
      }
      expect(repo.fingerprint()).toBe(before);
      expect(leftovers(repo.root)).toEqual([]);
    },
  );

  it('lets only one export into a repository run at a time', async () => {
    const repo = makeLocalGitRepo({ 'a.txt': 'a\n' });
    const { id } = await converse({ repository: repo.root }, 'echo z > z.txt');
    const exportTo = (branch: string) =>
      service.api('POST', `/api/conversations/${id}/local-repository/export`, {
        body: { mode: 'branch', branch },
      });
    const answers = await Promise.all([exportTo('dockhand/one'), exportTo('dockhand/two')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(JSON.stringify(answers.find((a) => a.status === 409)?.json)).toContain('is running');
  });

  it('never runs the repository’s hooks, file-system monitor or filters on this machine, and reads nothing through links out of it', async () => {
    const outside = makeLocalGitRepo({}, 'outside');
    outside.write('secret.txt', 'outside secret\n');
    const repo = makeLocalGitRepo({ 'a.txt': 'a\n', '.gitattributes': '*.txt filter=evil diff=evil\n' });
    const marker = `${outside.root}/ran`;
    const script = `#!/bin/sh\necho "$0" >> ${marker}\n`;
    for (const hook of [
      'post-checkout',
      'reference-transaction',
      'pre-commit',
      'post-commit',
      'post-merge',
      'pre-auto-gc',
      'fsmonitor',
    ]) {
      repo.write(`.git/hooks/${hook}`, script);
      chmodSync(`${repo.root}/.git/hooks/${hook}`, 0o755);
    }
    repo.git('config', 'core.fsmonitor', `${repo.root}/.git/hooks/fsmonitor`);
    repo.git('config', 'filter.evil.clean', `${repo.root}/.git/hooks/fsmonitor`);
    repo.git('config', 'filter.evil.smudge', `${repo.root}/.git/hooks/fsmonitor`);
    repo.git('config', 'diff.evil.textconv', `${repo.root}/.git/hooks/fsmonitor`);
    repo.git('config', 'core.alternateRefsCommand', `${repo.root}/.git/hooks/fsmonitor`);
    // A link out of the repository, and an index entry that pretends a file lies behind it.
    symlinkSync(outside.root, `${repo.root}/out`);
    const blob = repo.git('hash-object', '-w', '--no-filters', `${outside.root}/secret.txt`).trim();
    repo.git(
      '-c',
      'core.fsmonitor=false',
      'update-index',
      '--add',
      '--cacheinfo',
      `100644,${blob},out/secret.txt`,
    );
    rmSync(marker, { force: true });

    const { id, sandbox } = await converse(
      { repository: repo.root },
      'echo agent > a.txt && echo x > ../escape.txt',
    );
    const copied = await execIn(
      sandbox,
      'cd /workspace/project/project && ls -la out; cat out/secret.txt 2>&1; ls .git/hooks',
    );
    expect(copied.stdout).not.toContain('outside secret');
    expect(copied.stdout).not.toContain('reference-transaction');
    const branch = await service.api('POST', `/api/conversations/${id}/local-repository/export`, {
      body: { mode: 'branch', branch: 'dockhand/hostile' },
    });
    expect(branch.status, JSON.stringify(branch.json)).toBe(200);
    const applied = await service.api('POST', `/api/conversations/${id}/local-repository/export`, {
      body: { mode: 'apply' },
    });
    expect(applied.status, JSON.stringify(applied.json)).toBe(200);
    expect(repo.read('a.txt')).toBe('agent\n');
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(`${repo.root}/../escape.txt`)).toBe(false);
  });
});
