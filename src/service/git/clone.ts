import { randomInt } from 'node:crypto';
import type { GitProvider } from '../../shared/api/settings';
import { CLONE_STATUS, CloneError, cloneFailure, gitReason } from './clone-errors';
import { type CredentialTarget, helperCommand, helperConfigKey, tokenEnvName } from './credential-helper';
import type { GitSandbox } from './git-sandbox';
import type { SandboxExec } from '../sandbox/sandbox-workspace';

export interface CloneOptions {
  sandbox: GitSandbox;
  /** `owner/repo` (GitLab: `group/sub/repo`). */
  repository: string;
  provider: GitProvider;
  /** `hostname[:port]` of the provider's git server. */
  host: string;
  /** The provider's token, or null for an anonymous clone of a public repository. */
  token: string | null;
  /** The branch to check out, or null for the default branch plus a new local work branch. */
  branch: string | null;
  /** The clone goes to `<workingDir>/<repo name>`. */
  workingDir: string;
  /** Only test servers use `http`. */
  scheme?: 'https' | 'http';
  /** 15 minutes unless set. */
  timeoutSeconds?: number;
}

export interface ClonedRepository {
  directory: string;
  branch: string;
}

const CLONE_TIMEOUT_SECONDS = 15 * 60;
const WORK_BRANCH_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Keeps git's messages in English (they are classified) and never lets it prompt. */
const NON_INTERACTIVE_ENV = { GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '', SSH_ASKPASS: '', LC_ALL: 'C' };

// Run as the sandbox user with the key ($1) and helper command ($2). The empty value first drops helpers
// configured before it (e.g. a system-wide `store`), so only the Dockhand helper sees the token.
const GLOBAL_HELPER_SCRIPT = `git config --global --unset-all "$1"
git config --global --add "$1" "" && git config --global --add "$1" "$2"`;

/** `dockhand-workspace-` and 8 random characters of [a-z0-9]. */
export function workBranchName(): string {
  const suffix = Array.from(
    { length: 8 },
    () => WORK_BRANCH_ALPHABET[randomInt(WORK_BRANCH_ALPHABET.length)],
  );
  return `dockhand-workspace-${suffix.join('')}`;
}

/**
 * Registers the credential helper for each host in the sandbox user's global git config, so that git
 * commands authenticate: with `<PROVIDER>_TOKEN` in their environment (the clone), else through the
 * sandbox's credential broker. Only for sandboxes whose global config is their own (containers); a process
 * sandbox's helper is set per clone instead.
 */
export async function configureCredentialHelpers(
  sandbox: GitSandbox,
  targets: CredentialTarget[],
): Promise<void> {
  if (sandbox.helperScope !== 'global' || targets.length === 0) return;
  const helperPath = await sandbox.installCredentialHelper();
  for (const target of targets) {
    const key = helperConfigKey(target);
    const command = helperCommand(helperPath, target, sandbox.credentialSocket);
    const result = await sandbox.exec(['sh', '-c', GLOBAL_HELPER_SCRIPT, 'sh', key, command], {
      env: NON_INTERACTIVE_ENV,
    });
    if (result.exitCode !== 0) {
      throw new CloneError(
        CLONE_STATUS.error,
        `Configuring git credentials failed: ${gitReason(result, null)}`,
      );
    }
  }
}

/** `git clone` options that set the helper in the new repository's config (process sandboxes). */
async function repositoryHelperConfig(sandbox: GitSandbox, target: CredentialTarget): Promise<string[]> {
  const key = helperConfigKey(target);
  const command = helperCommand(await sandbox.installCredentialHelper(), target, sandbox.credentialSocket);
  return ['-c', `${key}=`, '-c', `${key}=${command}`];
}

/** The checked-out branch of an existing clone in `directory`, or null when there is none. */
async function existingCloneBranch(exec: SandboxExec, directory: string): Promise<string | null> {
  if ((await exec(['test', '-e', `${directory}/.git`])).exitCode !== 0) return null;
  const head = await exec(['git', '-C', directory, 'rev-parse', '--abbrev-ref', 'HEAD'], {
    env: NON_INTERACTIVE_ENV,
  });
  return head.exitCode === 0 ? head.stdout.trim() : null;
}

function repositoryName(repository: string): string {
  const segments = repository.split('/');
  const name = segments.at(-1);
  if (segments.length < 2 || !name || segments.some((s) => s === '' || s === '.' || s === '..')) {
    throw new Error(`Not a repository path: ${repository}`);
  }
  return name;
}

/**
 * Clones `https://<host>/<repository>.git` into `<workingDir>/<repo name>` in its own command, with the token
 * only in that command's environment: the credential helper hands it to git, so it is never written to the
 * sandbox (not in the remote URL, `.git/` or any config). Checks out `branch`, else creates a new local
 * `dockhand-workspace-<8>` branch from the default one. An existing clone there is kept as it is.
 * Failures are CloneErrors with the status id and message to show.
 */
export async function cloneRepository(options: CloneOptions): Promise<ClonedRepository> {
  const { sandbox, repository, provider, host, token, branch } = options;
  const directory = `${options.workingDir.replace(/\/+$/, '')}/${repositoryName(repository)}`;
  const target: CredentialTarget = { provider, host, scheme: options.scheme ?? 'https' };
  const timeoutSeconds = options.timeoutSeconds ?? CLONE_TIMEOUT_SECONDS;

  let cloneConfig: string[] = [];
  if (token && sandbox.helperScope === 'global') await configureCredentialHelpers(sandbox, [target]);
  if (token && sandbox.helperScope === 'repository')
    cloneConfig = await repositoryHelperConfig(sandbox, target);

  const existingBranch = await existingCloneBranch(sandbox.exec, directory);
  if (existingBranch) return { directory, branch: existingBranch };

  const url = `${target.scheme}://${host}/${repository}.git`;
  const env = { ...NON_INTERACTIVE_ENV, ...(token ? { [tokenEnvName(provider)]: token } : {}) };
  const clone = await sandbox.exec(
    ['git', 'clone', '-q', ...cloneConfig, ...(branch ? [`--branch=${branch}`] : []), '--', url, directory],
    { env, timeout: timeoutSeconds },
  );
  if (clone.exitCode !== 0) {
    throw cloneFailure(clone, { repository, provider, host, branch, token, timeoutSeconds });
  }
  if (branch) return { directory, branch };

  const workBranch = workBranchName();
  const checkout = await sandbox.exec(['git', '-C', directory, 'checkout', '-q', '-b', workBranch], {
    env: NON_INTERACTIVE_ENV,
  });
  if (checkout.exitCode !== 0) {
    throw new CloneError(
      CLONE_STATUS.error,
      `Creating the branch ${workBranch} failed: ${gitReason(checkout, null)}`,
    );
  }
  return { directory, branch: workBranch };
}

/** Makes `directory` a new git repository unless it already is one (a workspace without a repository). */
export async function initEmptyWorkspace(exec: SandboxExec, directory: string): Promise<void> {
  if ((await exec(['test', '-e', `${directory}/.git`])).exitCode === 0) return;
  const result = await exec(['git', 'init', '-q', '--', directory], { env: NON_INTERACTIVE_ENV });
  if (result.exitCode !== 0) {
    throw new CloneError(
      CLONE_STATUS.error,
      `Creating a git repository in ${directory} failed: ${gitReason(result, null)}`,
    );
  }
}
