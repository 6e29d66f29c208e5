import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeHostileRepository,
  makeLinkedObjectsRepository,
  SECRET_TEXT,
} from '../local-repository/hostile-object-store';
import { makeLocalGitRepo } from '../support/local-git-repo';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import type { TestService } from '../support/service';
import {
  closeSandboxService,
  conversationEvents,
  dockerSkipReason,
  execIn,
  startSandboxService,
  createConversation,
  useScriptedModel,
} from '../sandbox/support';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the import-alternates security tests: ${skip}`);

/** Where a conversation's copy of a repository named `project` is in its sandbox. */
const COPY = '/workspace/project/project';

/**
 * A repository of this machine whose object store points outside it (alternates naming a folder of secrets,
 * linked `pack` and loose object folders, a linked `.git/objects`): the copy into the conversation's sandbox
 * takes none of what lies behind them, and a legitimate `clone --shared` repository still copies whole.
 */
describe.skipIf(skip !== null)('importing a repository whose object store points outside it', () => {
  let llm: ScriptedLlm;
  let service: TestService;

  beforeAll(async () => {
    llm = await startScriptedLlm([], {
      channels: [{ marker: '[dockhand:title]', step: { text: 'Import' } }],
    });
    service = await startSandboxService();
    await useScriptedModel(service, llm);
  });

  afterAll(async () => {
    await closeSandboxService(service);
    await llm?.close();
  });

  /** Starts a conversation on `repository` and waits until its start has ended, either way. */
  async function start(repository: string) {
    llm.push({ text: 'Done.' });
    const { id, info } = await createConversation(service, {
      repository,
      initial_user_msg: 'Look at the repository.',
    });
    return { id, info, sandbox: info.sandbox_id as string };
  }

  it('copies none of the files behind alternates and links, and the copy works', async () => {
    const { repo } = makeHostileRepository();
    const { info, sandbox } = await start(repo.root);
    expect(info.status).toBe('RUNNING');
    const listed = await execIn(sandbox, `cd ${COPY} && find .git \\( -type f -o -type l \\)`);
    expect(listed.exitCode).toBe(0);
    const names = listed.stdout.split('\n').filter(Boolean);
    expect(names.filter((name) => /id_rsa|credentials|\/ab\/|pack-d{40}|alternates/.test(name))).toEqual([]);
    // The copy's objects are exactly the repository's own (the start wrote none: nothing was uncommitted).
    const own = repo.git('rev-list', '--objects', '--all').trim().split('\n');
    const expected = own.map((line) => `.git/objects/${line.slice(0, 2)}/${line.slice(2, 40)}`);
    expect(names.filter((name) => name.startsWith('.git/objects/')).sort()).toEqual(expected.sort());
    const secret = await execIn(sandbox, `grep -r -l -F -e ${SECRET_TEXT} ${COPY}/.git; test $? -eq 1`);
    expect(secret.stdout, secret.stdout).toBe('');
    expect(secret.exitCode).toBe(0);
    const git = await execIn(
      sandbox,
      `cd ${COPY} && git log --format=%s && git status --short && git fsck --no-dangling 2>&1`,
    );
    expect(git.exitCode, git.stderr).toBe(0);
    expect(git.stdout).toBe('First commit\n');
  });

  it('refuses a repository whose .git/objects is a symbolic link, saying why, and copies nothing', async () => {
    const { repo } = makeLinkedObjectsRepository();
    const { id, info, sandbox } = await start(repo.root);
    expect(info.status).toBe('STOPPED');
    const events = JSON.stringify(await conversationEvents(service, id));
    expect(events).toContain(
      `Copying ${repo.root} failed: ${repo.root}/.git/objects is not a folder (a symbolic link is not followed)`,
    );
    expect(events).not.toContain(SECRET_TEXT);
    const workspace = await execIn(
      sandbox,
      `test ! -e ${COPY} && echo no-copy; grep -r -l -F -e ${SECRET_TEXT} /workspace`,
    );
    expect(workspace.stdout).toBe('no-copy\n');
  });

  it('copies a `git clone --shared` repository with its borrowed history: git log and status work', async () => {
    const base = makeLocalGitRepo({ 'base.txt': 'base\n' }, 'base');
    const shared = path.join(path.dirname(base.root), 'project');
    base.git('clone', '-q', '--shared', base.root, shared);
    base.git('-C', shared, 'commit', '-q', '--allow-empty', '-m', 'Shared commit');
    const { info, sandbox } = await start(shared);
    expect(info.status).toBe('RUNNING');
    const git = await execIn(
      sandbox,
      `cd ${COPY} && git log --format=%s && git status --short && cat base.txt && git fsck 2>&1 && ls .git/objects/info`,
    );
    expect(git.exitCode, git.stderr).toBe(0);
    expect(git.stdout).toBe('Shared commit\nFirst commit\nbase\n');
  });
});
