import Docker from 'dockerode';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloneError } from '../../src/service/git/clone-errors';
import { cloneRepository, initEmptyWorkspace, type CloneOptions } from '../../src/service/git/clone';
import { startCredentialBroker } from '../../src/service/git/credential-broker';
import { gitSandbox, type GitSandbox } from '../../src/service/git/git-sandbox';
import type { SandboxWorkspace } from '../../src/service/sandbox/sandbox-workspace';
import { LentFolders } from '../../src/service/sandbox/docker/lent-folders';
import { DockerWorkspace } from '../../src/service/sandbox/docker/docker-workspace';
import { ProcessWorkspace } from '../../src/service/sandbox/process/process-workspace';
import { dockerUnavailableReason, SANDBOX_IMAGE } from '../support/test-sandboxes';
import { type GitHttpServer, startGitHttpServer } from '../support/git-http-server';
import { freePort } from '../support/ports';
import { until } from '../support/until';

const TOKEN = 'ghp_clone-test-token-8d1f';
const TEST_LABELS = { 'dev.dockhand.managed': 'true', 'dev.dockhand.test': 'git' };

interface Fixture {
  workspace: SandboxWorkspace;
  sandbox: GitSandbox;
  /** Where clones go, as the sandbox names it. */
  workingDir: string;
  /** The sandbox user's home (its global git config). */
  home: string;
  /** Runs a shell script in the sandbox as its user; returns stdout, throws on failure. */
  sh(script: string, env?: Record<string, string>): Promise<string>;
  remove(): Promise<void>;
}

const docker = new Docker();
const dockerSkipReason = await dockerUnavailableReason(docker);
if (dockerSkipReason) console.warn(`Skipping the Docker clone tests: ${dockerSkipReason}`);

async function removeTestContainers(): Promise<void> {
  const labels = Object.entries(TEST_LABELS).map(([name, value]) => `${name}=${value}`);
  const stale = await docker.listContainers({ all: true, filters: { label: labels } });
  await Promise.all(stale.map((c) => docker.getContainer(c.Id).remove({ force: true, v: true })));
}

function shellOf(sandbox: GitSandbox): Fixture['sh'] {
  return async (script, env) => {
    const result = await sandbox.exec(['sh', '-c', script], { env });
    if (result.exitCode !== 0) throw new Error(`${script} failed (${result.exitCode}): ${result.stderr}`);
    return result.stdout;
  };
}

const kinds: { name: string; skipReason: string | null; create(): Promise<Fixture> }[] = [
  {
    name: 'docker',
    skipReason: dockerSkipReason,
    create: async () => {
      // Host networking: the container reaches the git server on the host's 127.0.0.1.
      const container = await docker.createContainer({
        Image: SANDBOX_IMAGE,
        Cmd: ['sleep', 'infinity'],
        Labels: TEST_LABELS,
        HostConfig: { Init: true, NetworkMode: 'host' },
      });
      const remove = () => container.remove({ force: true, v: true });
      try {
        await container.start();
      } catch (error) {
        await remove();
        throw error;
      }
      const workspace = new DockerWorkspace({
        sandboxId: 'clone-test',
        container,
        user: 'dockhand',
        workspaceDir: '/workspace',
        workingDir: '/workspace/project',
        appPorts: { WORKER_1: 0, WORKER_2: 0 },
        lent: new LentFolders(docker),
      });
      const sandbox = gitSandbox(workspace);
      return {
        workspace,
        sandbox,
        workingDir: '/workspace/project',
        home: '/home/dockhand',
        sh: shellOf(sandbox),
        remove,
      };
    },
  },
  {
    name: 'process',
    skipReason: null,
    create: async () => {
      const root = await mkdtemp(path.join(tmpdir(), 'dockhand-clone-'));
      const home = path.join(root, 'home');
      const workspace = new ProcessWorkspace({
        sandboxId: `clone-test-${path.basename(root)}`,
        workspaceDir: `${root}/workspace`,
        workingDir: `${root}/workspace/project`,
        env: { PATH: process.env.PATH ?? '', HOME: home, GIT_CONFIG_NOSYSTEM: '1' },
        appPorts: { WORKER_1: 0, WORKER_2: 0 },
        helperDir: path.join(root, 'private', 'bin'),
        adopt: () => () => undefined,
      });
      const sandbox = gitSandbox(workspace);
      const sh = shellOf(sandbox);
      await sh(`mkdir -p "${home}" "${root}/workspace/project"`);
      const remove = async () => {
        await rm(root, { recursive: true, force: true });
        await rm(path.dirname(sandbox.credentialSocket), { recursive: true, force: true });
      };
      return { workspace, sandbox, workingDir: `${root}/workspace/project`, home, sh, remove };
    },
  },
];

let server: GitHttpServer;

beforeAll(async () => {
  if (!dockerSkipReason) await removeTestContainers();
  server = await startGitHttpServer({
    token: TOKEN,
    repositories: [
      {
        name: 'octo/private',
        private: true,
        branches: { main: { 'README.md': 'main branch\n' }, feature: { 'feature.txt': 'feature work\n' } },
      },
      { name: 'octo/public', branches: { trunk: { 'PUBLIC.md': 'public\n' } } },
    ],
  });
});
afterAll(async () => {
  await server?.close();
  if (!dockerSkipReason) await removeTestContainers();
});

describe.each(kinds)('cloneRepository in a $name sandbox', ({ skipReason, create }) => {
  let fixture: Fixture;
  /** A clean workspace directory per test. */
  let workspace = 0;

  beforeAll(async () => {
    if (!skipReason) fixture = await create();
  });
  afterAll(() => fixture?.remove());

  async function clone(changes: Partial<CloneOptions> = {}) {
    const workingDir = `${fixture.workingDir}/w${++workspace}`;
    await fixture.sh(`mkdir -p "${workingDir}"`);
    return cloneRepository({
      sandbox: fixture.sandbox,
      repository: 'octo/private',
      provider: 'github',
      host: server.host,
      token: TOKEN,
      branch: null,
      workingDir,
      scheme: 'http',
      ...changes,
    });
  }

  async function failure(changes: Partial<CloneOptions>) {
    const error = await clone(changes).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CloneError);
    const { statusId, message } = error as CloneError;
    return { statusId, message };
  }

  it.skipIf(skipReason)('clones a private repository at the selected branch', async () => {
    const users = server.authenticatedUsers.length;
    const cloned = await clone({ branch: 'feature' });
    expect(cloned).toEqual({ directory: `${fixture.workingDir}/w${workspace}/private`, branch: 'feature' });
    expect(await fixture.sh(`cat "${cloned.directory}/feature.txt"`)).toBe('feature work\n');
    expect((await fixture.sh(`git -C "${cloned.directory}" rev-parse --abbrev-ref HEAD`)).trim()).toBe(
      'feature',
    );
    expect(server.authenticatedUsers.slice(users)).toContain('x-access-token');
  });

  it.skipIf(skipReason)('clones the default branch onto a new local work branch', async () => {
    const cloned = await clone();
    expect(cloned.branch).toMatch(/^dockhand-workspace-[a-z0-9]{8}$/);
    const git = `git -C "${cloned.directory}"`;
    expect((await fixture.sh(`${git} rev-parse --abbrev-ref HEAD`)).trim()).toBe(cloned.branch);
    expect(await fixture.sh(`${git} rev-parse HEAD origin/main`)).toMatch(/^([0-9a-f]{40})\n\1\n$/);
    expect(await fixture.sh(`cat "${cloned.directory}/README.md"`)).toBe('main branch\n');
  });

  it.skipIf(skipReason)('keeps an existing clone as it is', async () => {
    const first = await clone();
    const again = await cloneRepository({
      sandbox: fixture.sandbox,
      repository: 'octo/private',
      provider: 'github',
      host: server.host,
      token: TOKEN,
      branch: null,
      workingDir: path.posix.dirname(first.directory),
      scheme: 'http',
    });
    expect(again).toEqual(first);
  });

  it.skipIf(skipReason)('clones a public repository without a token', async () => {
    const cloned = await clone({ repository: 'octo/public', token: null, branch: 'trunk' });
    expect(await fixture.sh(`cat "${cloned.directory}/PUBLIC.md"`)).toBe('public\n');
  });

  it.skipIf(skipReason)('reports a rejected token as an authentication error', async () => {
    expect(await failure({ token: 'ghp_wrong' })).toEqual({
      statusId: 'STATUS$GIT_PROVIDER_AUTHENTICATION_ERROR',
      message: 'The GitHub token was rejected for octo/private',
    });
  });

  it.skipIf(skipReason)(
    'reports a missing branch, a missing repository and an unreachable host',
    async () => {
      expect(await failure({ branch: 'nope' })).toEqual({
        statusId: 'STATUS$ERROR',
        message: "Branch 'nope' does not exist in octo/private",
      });
      expect(await failure({ repository: 'octo/missing' })).toEqual({
        statusId: 'STATUS$ERROR',
        message: 'Repository not found, or the token has no access',
      });
      const closed = `127.0.0.1:${await freePort()}`;
      expect(await failure({ host: closed })).toEqual({
        statusId: 'STATUS$ERROR',
        message: `Cannot reach ${closed} from the sandbox`,
      });
    },
  );

  it.skipIf(skipReason)(
    'authenticates later git commands through the credential broker, for the repository host only',
    async () => {
      const cloned = await clone({ branch: 'feature' });
      const fetch = `git -C "${cloned.directory}" fetch -q origin`;
      const noPrompt = { GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '' };
      // No broker: no token (the clone's own command had it in its environment).
      await expect(fixture.sh(fetch, noPrompt)).rejects.toThrow(
        /could not read Username|Authentication failed/,
      );
      const requests: { protocol: string; host: string; answered: boolean }[] = [];
      const broker = await startCredentialBroker({
        workspace: fixture.workspace,
        target: { provider: 'github', host: server.host, scheme: 'http' },
        token: () => Promise.resolve(TOKEN),
        log: (request) => requests.push(request),
      });
      try {
        await until(
          () => fixture.sandbox.exec(['test', '-S', broker.socketPath]),
          (result) => result.exitCode === 0,
          'the broker to listen',
        );
        await expect(fixture.sh(fetch, noPrompt)).resolves.toBe('');
        expect(requests).toContainEqual({ protocol: 'http', host: server.host, answered: true });
        // Asked directly for another host, the service answers nothing.
        const helper = `${await fixture.sandbox.installCredentialHelper()} https evil.example GITHUB_TOKEN x-access-token ${broker.socketPath} get`;
        expect(await fixture.sh(`printf 'protocol=https\\nhost=evil.example\\n\\n' | ${helper}`)).toBe('');
        expect(requests).toContainEqual({ protocol: 'https', host: 'evil.example', answered: false });
        expect(JSON.stringify(requests)).not.toContain(TOKEN);
      } finally {
        await broker.close();
      }
    },
  );

  it.skipIf(skipReason)(
    'leaves the token nowhere in the sandbox: .git/, git config, remote URL, home',
    async () => {
      const cloned = await clone();
      const git = `git -C "${cloned.directory}"`;
      expect((await fixture.sh(`${git} config remote.origin.url`)).trim()).toBe(
        `http://${server.host}/octo/private.git`,
      );
      expect(await fixture.sh(`${git} config --list --show-origin`)).not.toContain(TOKEN);
      // grep exits 1 when nothing matches: every file of the workspaces, .git/ included, and the home.
      await expect(
        fixture.sh(`grep -r -l -F -e "$T" "${fixture.workingDir}" "${fixture.home}"; test $? -eq 1`, {
          T: TOKEN,
        }),
      ).resolves.toBe('');
    },
  );

  it.skipIf(skipReason)('registers the helper in the user’s global config only for containers', async () => {
    await clone();
    const key = `credential.http://${server.host}.helper`;
    const global = await fixture.sandbox.exec(['git', 'config', '--global', '--get-all', key]);
    if (fixture.sandbox.helperScope === 'global') {
      expect(global.stdout).toBe(
        `\n/opt/dockhand/bin/git-credential-dockhand http ${server.host} GITHUB_TOKEN x-access-token ${fixture.sandbox.credentialSocket}\n`,
      );
      const mode = await fixture.sh('stat -c %U:%a /opt/dockhand/bin/git-credential-dockhand');
      expect(mode.trim()).toBe('root:755');
    } else {
      expect(global.exitCode).not.toBe(0);
    }
  });
});

describe.each(kinds)('initEmptyWorkspace in a $name sandbox', ({ skipReason, create }) => {
  let fixture: Fixture;
  beforeAll(async () => {
    if (!skipReason) fixture = await create();
  });
  afterAll(() => fixture?.remove());

  it.skipIf(skipReason)('makes the directory a git repository once', async () => {
    const dir = `${fixture.workingDir}/empty`;
    await fixture.sh(`mkdir -p "${dir}"`);
    await initEmptyWorkspace(fixture.sandbox.exec, dir);
    await fixture.sh(
      `cd "${dir}" && echo x > a && git add a && git -c user.name=t -c user.email=t@t commit -qm a`,
    );
    await initEmptyWorkspace(fixture.sandbox.exec, dir);
    expect((await fixture.sh(`git -C "${dir}" rev-list --count HEAD`)).trim()).toBe('1');
  });
});
