import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureGitExcludes } from '../../src/service/git/git-excludes';
import { gitSandbox, type GitSandbox } from '../../src/service/git/git-sandbox';
import { LentFolders } from '../../src/service/sandbox/docker/lent-folders';
import { DockerWorkspace } from '../../src/service/sandbox/docker/docker-workspace';
import { dockerUnavailableReason, removeContainer, startTestContainer } from '../support/test-sandboxes';

const docker = new Docker();
const skipReason = await dockerUnavailableReason(docker);
if (skipReason) console.warn(`Skipping the sandbox git excludes test: ${skipReason}`);

describe.skipIf(skipReason !== null)('git excludes of a container sandbox', () => {
  let container: Docker.Container;
  let sandbox: GitSandbox;

  async function sh(script: string): Promise<string> {
    const result = await sandbox.exec(['sh', '-c', script]);
    if (result.exitCode !== 0) throw new Error(`${script} failed (${result.exitCode}): ${result.stderr}`);
    return result.stdout;
  }

  beforeAll(async () => {
    container = await startTestContainer(docker, 'git-excludes');
    const workspace = new DockerWorkspace({
      sandboxId: 'git-excludes-test',
      container,
      user: 'dockhand',
      workspaceDir: '/workspace',
      workingDir: '/workspace/project',
      appPorts: { WORKER_1: 0, WORKER_2: 0 },
      lent: new LentFolders(docker),
    });
    sandbox = gitSandbox(workspace);
  });

  afterAll(async () => {
    if (container) await removeContainer(container);
  });

  it('keeps interpreter caches out of git status and git add -A, and is idempotent', async () => {
    await sh('cd /workspace/project && git init -q . && echo x > app.py && mkdir -p pkg/__pycache__');
    await sh('cd /workspace/project && touch pkg/__pycache__/app.cpython-311.pyc stray.pyc');
    const before = await sh('cd /workspace/project && git status --porcelain --untracked-files=all');
    expect(before).toContain('stray.pyc');

    await configureGitExcludes(sandbox);
    await configureGitExcludes(sandbox);
    const after = await sh('cd /workspace/project && git status --porcelain --untracked-files=all');
    expect(after.trim().split('\n')).toEqual(['?? app.py']);
    await sh('cd /workspace/project && git add -A');
    expect(await sh('cd /workspace/project && git diff --cached --name-only')).toBe('app.py\n');
  });

  it('keeps an excludes file the image already set', async () => {
    await sh('git config --global core.excludesFile /etc/image-ignore');
    await configureGitExcludes(sandbox);
    expect(await sh('git config --global --get core.excludesFile')).toBe('/etc/image-ignore\n');
  });
});
