import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dockerExec } from '../../src/service/sandbox/docker/docker-exec';
import { makeLocalGitRepo } from '../support/local-git-repo';
import { docker, dockerSkipReason } from '../sandbox/support';
import { startLocalConversations, type LocalConversations } from '../local-repository/local-conversation';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the hostile export tests: ${skip}`);

// A hostile git, first on the sandbox's PATH: `write-tree` answers the tree in /tmp/evil-tree, so the
// export commits whatever tree the attacker built; /tmp/git-mode makes it fail or hand over no bundle.
const SHIM = `#!/bin/sh
mode=$(cat /tmp/git-mode 2>/dev/null)
if [ "$mode" = fail ]; then echo "shim: broken git" >&2; exit 3; fi
if [ "$1" = bundle ] && [ "$mode" = no-bundle ]; then rm -f "$3"; exit 0; fi
if [ "$1" = bundle ] && [ "$mode" = empty-bundle ]; then : > "$3"; exit 0; fi
if [ "$1" = write-tree ] && [ -s /tmp/evil-tree ]; then cat /tmp/evil-tree; exit 0; fi
exec /usr/bin/git "$@"
`;

// Builds, with the real git, the agent's HEAD tree plus one entry named $1: a folder holding an executable
// hooks/post-checkout ($2 = tree) or a link to /etc ($2 = link); its id goes to /tmp/evil-tree.
const EVIL_TREE = `set -e
cd /workspace/project/project
g=/usr/bin/git
hook=$(printf '#!/bin/sh\\necho pwned\\n' | $g hash-object -w --stdin)
hooks=$(printf '100755 blob %s\\tpost-checkout\\n' "$hook" | $g mktree)
folder=$(printf '040000 tree %s\\thooks\\n' "$hooks" | $g mktree)
link=$(printf '/etc' | $g hash-object -w --stdin)
if [ "$2" = link ]; then entry="120000 blob $link"; else entry="040000 tree $folder"; fi
{ $g ls-tree HEAD; printf '%s\\t%s\\n' "$entry" "$1"; } | $g mktree > /tmp/evil-tree`;

describe.skipIf(skip !== null)('a hostile sandbox exporting into a repository of this machine', () => {
  let local: LocalConversations;

  beforeAll(async () => {
    local = await startLocalConversations();
  });

  afterAll(async () => {
    await local?.close();
  });

  /** Runs `argv` in the conversation's sandbox as `user`. */
  const inSandbox = (sandbox: string, user: string, argv: string[]) =>
    dockerExec(docker.getContainer(`dockhand-${sandbox}`), argv, { user });

  /** Puts the hostile git first on the sandbox's PATH (as root: the sandbox's git is the attacker's). */
  async function installShim(sandbox: string): Promise<void> {
    const script = 'printf %s "$1" > /usr/local/bin/git && chmod 755 /usr/local/bin/git';
    const installed = await inSandbox(sandbox, 'root', ['sh', '-c', script, 'sh', SHIM]);
    expect(installed.exitCode, installed.stderr).toBe(0);
  }

  it('refuses trees naming .git in any spelling git refuses, and links named .gitmodules: 409, nothing written', async () => {
    const repo = makeLocalGitRepo({ 'a.txt': 'a\n' });
    const { id, sandbox } = await local.converse({ repository: repo.root }, 'echo agent > b.txt');
    await installShim(sandbox);
    const build = async (name: string, kind: 'tree' | 'link') => {
      const built = await inSandbox(sandbox, 'dockhand', ['sh', '-c', EVIL_TREE, 'sh', name, kind]);
      expect(built.exitCode, built.stderr).toBe(0);
    };

    // The shim's tree does reach the export: a harmless name is applied as the attacker built it.
    await build('harmless', 'tree');
    const harmless = await local.exportWork(id, { mode: 'apply' });
    expect(harmless.status, JSON.stringify(harmless.json)).toBe(200);
    expect(repo.read('harmless/hooks/post-checkout')).toBe('#!/bin/sh\necho pwned\n');
    repo.git('clean', '-fdq');

    const before = repo.fingerprint();
    const refused: [string, 'tree' | 'link'][] = [
      ['.git', 'tree'],
      ['.GIT', 'tree'],
      ['GIT~1', 'tree'],
      ['git~1', 'tree'],
      ['.git.', 'tree'],
      ['.git ', 'tree'],
      ['.git. .', 'tree'],
      ['.git::$INDEX_ALLOCATION', 'tree'],
      ['.g\u200cit', 'tree'],
      ['\u200c.Git', 'tree'],
      ['.gi\ufefft', 'tree'],
      ['sub\\.git', 'tree'],
      ['back\\slash', 'tree'],
      ['C:drive', 'tree'],
      ['.gitmodules', 'link'],
      ['GITMOD~1', 'link'],
      ['.gitattributes', 'link'],
    ];
    for (const [index, [name, kind]] of refused.entries()) {
      await build(name, kind);
      for (const body of [{ mode: 'branch', branch: `evil/${index}` }, { mode: 'apply' }]) {
        const answer = await local.exportWork(id, body);
        expect(answer.status, `${JSON.stringify(name)} ${body.mode}: ${JSON.stringify(answer.json)}`).toBe(
          409,
        );
        expect((answer.json as { detail: string }).detail).toMatch(/git refuses|refuses to check out/);
      }
    }
    // No branch, no object, no file, no temporary file: the user's repository is byte for byte as it was.
    expect(repo.fingerprint()).toBe(before);
    expect(repo.git('for-each-ref', 'refs/heads/evil')).toBe('');
  });

  it('refuses to write through a folder that is the git directory under another name (a bind mount)', async (context) => {
    const repo = makeLocalGitRepo({ 'a.txt': 'a\n' });
    const { id } = await local.converse(
      { repository: repo.root },
      "mkdir -p mnt/hooks && printf '#!/bin/sh\\necho pwned\\n' > mnt/hooks/post-checkout && chmod 755 mnt/hooks/post-checkout",
    );
    mkdirSync(`${repo.root}/mnt`);
    try {
      execFileSync('mount', ['--bind', `${repo.root}/.git`, `${repo.root}/mnt`], { stdio: 'pipe' });
    } catch (error) {
      console.warn(`Skipping the bind mount case: mount --bind failed (${String(error)})`);
      context.skip();
    }
    try {
      const answer = await local.exportWork(id, { mode: 'apply' });
      expect(answer.status, JSON.stringify(answer.json)).toBe(409);
      expect(answer.json).toMatchObject({ conflicts: ['mnt/hooks/post-checkout'] });
      expect(existsSync(`${repo.root}/.git/hooks/post-checkout`)).toBe(false);
    } finally {
      execFileSync('umount', [`${repo.root}/mnt`]);
    }
  });

  it('answers 502 with a message, not 500, when the sandbox’s git fails or hands over no bundle', async () => {
    const repo = makeLocalGitRepo({ 'a.txt': 'a\n' });
    const { id, sandbox } = await local.converse({ repository: repo.root }, 'echo agent > b.txt');
    await installShim(sandbox);
    const before = repo.fingerprint();
    for (const [mode, message] of [
      ['fail', /Collecting the agent’s work in the sandbox failed: shim: broken git/],
      ['no-bundle', /did not hand over the agent’s work/],
      ['empty-bundle', /a bundle git does not write/],
    ] as const) {
      await inSandbox(sandbox, 'dockhand', ['sh', '-c', `echo ${mode} > /tmp/git-mode`]);
      for (const body of [{ mode: 'branch', branch: 'dockhand/x' }, { mode: 'apply' }]) {
        const answer = await local.exportWork(id, body);
        expect(answer.status, `${mode}: ${JSON.stringify(answer.json)}`).toBe(502);
        expect((answer.json as { detail: string }).detail).toMatch(message);
      }
    }
    expect(repo.fingerprint()).toBe(before);
  });
});
