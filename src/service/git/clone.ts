import { randomInt } from 'node:crypto';
import type { GitProvider } from '../../shared/api/settings';
import { CLONE_STATUS, CloneError, cloneFailure, gitReason } from './clone-errors';
import {
  CREDENTIAL_HELPER_SCRIPT,
  type CredentialTarget,
  helperCommand,
  helperConfigKey,
  tokenEnvName,
} from './credential-helper';
import { shellQuote } from '../sandbox/shell/shell-input';
import type { GitSandbox } from './git-sandbox';
import type { FileSurvey, SurveyRoot } from '../sandbox/files/sandbox-files';
import { parseSurvey, SURVEY_SCRIPT, surveyArgs, surveyRoots } from '../sandbox/files/survey-command';
import type { ExecResult, SandboxExec } from '../sandbox/sandbox-workspace';

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
  /** The folders to survey once the clone is there, for its folder. */
  survey?: (directory: string) => SurveyRoot[];
}

export interface ClonedRepository {
  directory: string;
  branch: string;
  /** With `CloneOptions.survey`: the clone's folders, surveyed in the same command (null when that failed). */
  survey?: FileSurvey | null;
}

const CLONE_TIMEOUT_SECONDS = 15 * 60;
const WORK_BRANCH_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Keeps git's messages in English (they are classified) and never lets it prompt. */
const NON_INTERACTIVE_ENV = { GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '', SSH_ASKPASS: '', LC_ALL: 'C' };

/** `git clone` options that set the helper in the new repository's config (process sandboxes). */
async function repositoryHelperConfig(sandbox: GitSandbox, target: CredentialTarget): Promise<string[]> {
  const key = helperConfigKey(target);
  const command = helperCommand(await sandbox.installCredentialHelper(), target, sandbox.credentialSocket);
  return ['-c', `${key}=`, '-c', `${key}=${command}`];
}

/** `dockhand-workspace-` and 8 random characters of [a-z0-9]. */
export function workBranchName(): string {
  const suffix = Array.from(
    { length: 8 },
    () => WORK_BRANCH_ALPHABET[randomInt(WORK_BRANCH_ALPHABET.length)],
  );
  return `dockhand-workspace-${suffix.join('')}`;
}

function repositoryName(repository: string): string {
  const segments = repository.split('/');
  const name = segments.at(-1);
  if (segments.length < 2 || !name || segments.some((s) => s === '' || s === '.' || s === '..')) {
    throw new Error(`Not a repository path: ${repository}`);
  }
  return name;
}

// Run as the sandbox user with the key ($1) and helper command ($2). The empty value first drops helpers
// configured before it (e.g. a system-wide `store`), so only the Dockhand helper sees the token.
const GLOBAL_HELPER_SCRIPT = `git config --global --unset-all "$1"
git config --global --add "$1" "" && git config --global --add "$1" "$2"`;

/** The clone's own helper reads the helper's script from this variable of the clone's environment. */
const INLINE_HELPER_VARIABLE = 'DOCKHAND_GIT_CREDENTIAL_HELPER';

/**
 * The whole clone as one command of the sandbox user: `git` with `cloneArgs` (the arguments' values are
 * quoted in; the token is only in the environment), each part announced on stdout (`<part>\\0`) so that a
 * failure is told by the last part reached. $1 the clone's folder, $2 the branch (empty: a new work branch
 * $3), $4 the token's variable, dropped once the clone is done; then the survey's script and arguments, if
 * any. An existing clone is kept: `existing\\0<branch>\\0`.
 */
function cloneScript(cloneArgs: string[]): string {
  return `dir=$1 branch=$2 work=$3 token=$4; shift 4
if [ -e "$dir/.git" ] && current=$(git -C "$dir" rev-parse --abbrev-ref HEAD); then
  printf 'existing\\0%s\\0' "$current"
else
  printf 'clone\\0'
  git ${cloneArgs.map(shellQuote).join(' ')} || exit 1
  if [ -z "$branch" ]; then
    printf 'checkout\\0'
    git -C "$dir" checkout -q -b "$work" || exit 1
  fi
fi
[ $# -gt 0 ] || exit 0
unset "$token"
printf 'survey\\0'
survey=$1; shift
exec sh -c "$survey" sh "$@"`;
}

/**
 * Registers the credential helper for the host in the sandbox user's global git config, so that later git
 * commands authenticate through the sandbox's credential broker. Only for sandboxes whose global config is
 * their own (containers); a process sandbox's helper is set in the clone's config instead.
 */
async function configureGlobalHelper(sandbox: GitSandbox, target: CredentialTarget): Promise<void> {
  const command = helperCommand(await sandbox.installCredentialHelper(), target, sandbox.credentialSocket);
  const result = await sandbox.exec(
    ['sh', '-c', GLOBAL_HELPER_SCRIPT, 'sh', helperConfigKey(target), command],
    { env: NON_INTERACTIVE_ENV },
  );
  if (result.exitCode !== 0) {
    throw new CloneError(
      CLONE_STATUS.error,
      `Configuring git credentials failed: ${gitReason(result, null)}`,
    );
  }
}

/**
 * The helper the clone itself runs with: the helper's script from the clone's environment (so the clone
 * does not wait for the helper's installation), for the one host, and only for `get` (the helper stores
 * nothing, so `store` and `erase` are skipped without starting python). git appends the action to the
 * arguments; `for action; do :; done` leaves the last one in `action`. The empty value first drops helpers
 * configured before it, so only this helper sees the token.
 */
function inlineHelperConfig(target: CredentialTarget, socket: string): string[] {
  const key = helperConfigKey(target);
  const helper =
    `f() { for action; do :; done; if [ "$action" = get ]; then python3 -c "$${INLINE_HELPER_VARIABLE}" "$@"; ` +
    `else cat >/dev/null; fi; }; f${helperCommand('', target, socket)}`;
  return ['-c', `${key}=`, '-c', `${key}=!${helper}`];
}

/**
 * Clones `https://<host>/<repository>.git` into `<workingDir>/<repo name>` in its own command, with the token
 * only in that command's environment: the credential helper hands it to git, so it is never written to the
 * sandbox (not in the remote URL, `.git/` or any config). Checks out `branch`, else creates a new local
 * `dockhand-workspace-<8>` branch from the default one. An existing clone there is kept as it is. With
 * `survey`, the same command surveys the clone's folders after it (`survey` in the result, null when that
 * survey failed). A container's helper is installed and registered for later commands beside the clone.
 * Failures are CloneErrors with the status id and message to show.
 */
export async function cloneRepository(options: CloneOptions): Promise<ClonedRepository> {
  const { sandbox, repository, provider, host, token, branch } = options;
  const directory = `${options.workingDir.replace(/\/+$/, '')}/${repositoryName(repository)}`;
  const target: CredentialTarget = { provider, host, scheme: options.scheme ?? 'https' };
  const timeoutSeconds = options.timeoutSeconds ?? CLONE_TIMEOUT_SECONDS;
  const configured =
    token && sandbox.helperScope === 'global' ? configureGlobalHelper(sandbox, target) : Promise.resolve();
  configured.catch(() => undefined);
  const workBranch = branch ? '' : workBranchName();
  const roots = options.survey ? surveyRoots(options.survey(directory)) : null;
  const url = `${target.scheme}://${host}/${repository}.git`;
  const env = {
    ...NON_INTERACTIVE_ENV,
    ...(token ? { [tokenEnvName(provider)]: token, [INLINE_HELPER_VARIABLE]: CREDENTIAL_HELPER_SCRIPT } : {}),
  };
  const cloneArgs = [
    ...(token ? inlineHelperConfig(target, sandbox.credentialSocket) : []),
    'clone',
    '-q',
    ...(token && sandbox.helperScope === 'repository' ? await repositoryHelperConfig(sandbox, target) : []),
    ...(branch ? [`--branch=${branch}`] : []),
    '--',
    url,
    directory,
  ];
  const args = [directory, branch ?? '', workBranch, tokenEnvName(provider)];
  const survey = roots ? [SURVEY_SCRIPT, ...surveyArgs(roots, null)] : [];
  const result = await sandbox.exec(['sh', '-c', cloneScript(cloneArgs), 'sh', ...args, ...survey], {
    env,
    timeout: timeoutSeconds,
  });
  const parts = result.stdout.split('\0');
  const reached = (part: string) => parts.includes(part);
  if (!reached('existing') && !reached('survey') && result.exitCode !== 0) throw failureOf(parts, result);
  await configured;
  const cloned = reached('existing') ? (parts[parts.indexOf('existing') + 1] ?? '') : (branch ?? workBranch);
  return { directory, branch: cloned, ...surveyed() };

  function surveyed(): { survey?: FileSurvey | null } {
    if (!roots) return {};
    const at = result.stdout.indexOf('survey\0');
    if (at < 0 || result.exitCode !== 0) return { survey: null };
    return { survey: parseSurvey(result.stdout.slice(at + 'survey\0'.length), roots, result.truncated) };
  }

  function failureOf(reachedParts: string[], failed: ExecResult): CloneError {
    if (reachedParts.includes('checkout'))
      return new CloneError(
        CLONE_STATUS.error,
        `Creating the branch ${workBranch} failed: ${gitReason(failed, null)}`,
      );
    return cloneFailure(failed, { repository, provider, host, branch, token, timeoutSeconds });
  }
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
