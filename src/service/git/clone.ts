import { randomInt } from 'node:crypto';
import type { GitProvider } from '../../shared/api/settings';
import { CLONE_STATUS, CloneError, cloneFailure, gitReason } from './clone-errors';
import { type CredentialTarget, helperCommand, helperConfigKey, tokenEnvName } from './credential-helper';
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

/**
 * The whole clone as one command of the sandbox user, each part announced on stdout (`<part>\0`) so that a
 * failure is told by the last part reached. $1 where the helper goes (`global`, `repository` or empty), $2 its
 * config key, $3 its command, $4 the clone's folder, $5 the URL, $6 the branch (empty: a new work branch $7),
 * $8 the token's variable, dropped once the clone is done; then the survey's script and arguments, if any.
 * An existing clone is kept: `existing\0<branch>\0`.
 */
const CLONE_SCRIPT = `scope=$1 key=$2 helper=$3 dir=$4 url=$5 branch=$6 work=$7 token=$8; shift 8
if [ "$scope" = global ]; then
  printf 'config\\0'
  git config --global --unset-all "$key"
  git config --global --add "$key" "" && git config --global --add "$key" "$helper" || exit 1
fi
if [ -e "$dir/.git" ] && current=$(git -C "$dir" rev-parse --abbrev-ref HEAD); then
  printf 'existing\\0%s\\0' "$current"
else
  printf 'clone\\0'
  if [ "$scope" = repository ]; then
    git clone -q -c "$key=" -c "$key=$helper" \${branch:+"--branch=$branch"} -- "$url" "$dir" || exit 1
  else
    git clone -q \${branch:+"--branch=$branch"} -- "$url" "$dir" || exit 1
  fi
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

/**
 * Clones `https://<host>/<repository>.git` into `<workingDir>/<repo name>` in its own command, with the token
 * only in that command's environment: the credential helper hands it to git, so it is never written to the
 * sandbox (not in the remote URL, `.git/` or any config). Checks out `branch`, else creates a new local
 * `dockhand-workspace-<8>` branch from the default one. An existing clone there is kept as it is. With
 * `survey`, the same command surveys the clone's folders after it (`survey` in the result, null when that
 * survey failed). Failures are CloneErrors with the status id and message to show.
 */
export async function cloneRepository(options: CloneOptions): Promise<ClonedRepository> {
  const { sandbox, repository, provider, host, token, branch } = options;
  const directory = `${options.workingDir.replace(/\/+$/, '')}/${repositoryName(repository)}`;
  const target: CredentialTarget = { provider, host, scheme: options.scheme ?? 'https' };
  const timeoutSeconds = options.timeoutSeconds ?? CLONE_TIMEOUT_SECONDS;
  const scope = token ? sandbox.helperScope : '';
  const helper = token
    ? helperCommand(await sandbox.installCredentialHelper(), target, sandbox.credentialSocket)
    : '';
  const workBranch = branch ? '' : workBranchName();
  const roots = options.survey ? surveyRoots(options.survey(directory)) : null;
  const url = `${target.scheme}://${host}/${repository}.git`;
  const env = { ...NON_INTERACTIVE_ENV, ...(token ? { [tokenEnvName(provider)]: token } : {}) };
  const args = [scope, helperConfigKey(target), helper, directory, url, branch ?? '', workBranch];
  const survey = roots ? [SURVEY_SCRIPT, ...surveyArgs(roots, null)] : [];
  const result = await sandbox.exec(
    ['sh', '-c', CLONE_SCRIPT, 'sh', ...args, tokenEnvName(provider), ...survey],
    { env, timeout: timeoutSeconds },
  );
  const parts = result.stdout.split('\0');
  const reached = (part: string) => parts.includes(part);
  if (reached('existing'))
    return { directory, branch: parts[parts.indexOf('existing') + 1] ?? '', ...surveyed() };
  if (!reached('survey') && result.exitCode !== 0) throw failureOf(parts, result);
  return { directory, branch: branch ?? workBranch, ...surveyed() };

  function surveyed(): { survey?: FileSurvey | null } {
    if (!roots) return {};
    const at = result.stdout.indexOf('survey\0');
    if (at < 0 || result.exitCode !== 0) return { survey: null };
    return { survey: parseSurvey(result.stdout.slice(at + 'survey\0'.length), roots, result.truncated) };
  }

  function failureOf(reachedParts: string[], failed: ExecResult): CloneError {
    const last = reachedParts.findLast((part) => ['config', 'clone', 'checkout'].includes(part));
    if (last === 'clone')
      return cloneFailure(failed, { repository, provider, host, branch, token, timeoutSeconds });
    if (last === 'checkout')
      return new CloneError(
        CLONE_STATUS.error,
        `Creating the branch ${workBranch} failed: ${gitReason(failed, null)}`,
      );
    return new CloneError(
      CLONE_STATUS.error,
      `Configuring git credentials failed: ${gitReason(failed, null)}`,
    );
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
