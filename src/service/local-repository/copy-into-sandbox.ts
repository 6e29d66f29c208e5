import path from 'node:path';
import { Readable } from 'node:stream';
import type { GitSandbox } from '../git/git-sandbox';
import type { FileSurvey, SandboxFiles, SurveyRoot } from '../sandbox/files/sandbox-files';
import { parseSurvey, SURVEY_SCRIPT, surveyArgs, surveyRoots } from '../sandbox/files/survey-command';
import type { LocalRepository } from './resolve-repository';
import type { CopyNotice } from './object-store';
import { type CopyProgress, snapshotArchive } from './snapshot-archive';

/** The ref, in the sandbox's copy, of the starting snapshot: what the review compares with. */
export const START_REF = 'refs/dockhand/start';

export const START_SNAPSHOT_MESSAGE =
  'Uncommitted changes in the working tree when the Dockhand conversation started';

const COPY_TIMEOUT_SECONDS = 15 * 60;

/** Non-interactive git in English, hooks off: the copy runs nothing of the repository's. */
const GIT_ENV = { GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };

// Run as the sandbox user in the copy's folder ($1) after the archive is in: the repository made around the
// archive's objects and refs (git init keeps what is there), HEAD on the branch ($2) or the
// commit ($3); with the working tree ($4 = working) its state becomes the baseline commit (message $5)
// when it differs from HEAD, else the branch is checked out. Prints the baseline.
const FINISH_SCRIPT = `set -e
cd "$1"
git init -q
if [ -n "$2" ]; then git symbolic-ref HEAD "refs/heads/$2"; elif [ -n "$3" ]; then git update-ref --no-deref HEAD "$3"; fi
if [ "$4" = working ]; then
  if [ -n "$3" ]; then git reset -q; fi
  git add -A -f
  if [ -z "$3" ] || ! git diff --cached --quiet; then
    git -c core.hooksPath=/dev/null commit -q --no-verify --allow-empty -m "$5"
  fi
else
  git reset -q --hard
fi
git update-ref ${START_REF} HEAD
git rev-parse HEAD`;

// After FINISH_SCRIPT, in the same command: the survey's script ($6) with its arguments, after a marker.
const SURVEY_AFTER = `
shift 5
printf '\\0survey\\0'
survey=$1; shift
exec sh -c "$survey" sh "$@"`;

export interface SandboxUser {
  uid: number;
  gid: number;
}

export interface CopyOptions {
  repository: LocalRepository;
  sandbox: GitSandbox;
  files: SandboxFiles;
  /** The copy goes to `<workingDir>/<folder name>`. */
  workingDir: string;
  /** GIT_AUTHOR_* and GIT_COMMITTER_* of the baseline commit. */
  identity: Record<string, string>;
  progress: CopyProgress;
  /** Told what the copy leaves out (links and alternates it does not follow). */
  notice: CopyNotice;
  /** The sandbox user, who owns the copy, when already asked (else asked first; `sandboxUser`). */
  owner?: SandboxUser;
  /** The folders to survey once the copy is there, for its folder (in the same command as its last step). */
  survey?: (directory: string) => SurveyRoot[];
}

export interface CopiedRepository {
  directory: string;
  /** The starting snapshot. */
  baseline: string;
  /** With `CopyOptions.survey`: the copy's folders, surveyed (null when that failed). */
  survey?: FileSurvey | null;
}

/** The folder of a local repository's copy in the workspace: the repository folder's name. */
export function copyFolderName(root: string): string {
  return path.posix.basename(root) || 'repository';
}

/** The sandbox user's uid and gid, which own the copy. */
export async function sandboxUser(sandbox: GitSandbox): Promise<SandboxUser> {
  const id = await sandbox.exec(['sh', '-c', 'id -u; id -g']);
  const [uid, gid] = id.stdout.trim().split('\n').map(Number);
  if (id.exitCode !== 0 || !Number.isInteger(uid) || !Number.isInteger(gid)) {
    throw new Error(`The sandbox user could not be found: ${id.stderr.trim()}`);
  }
  return { uid: uid ?? 0, gid: gid ?? 0 };
}

async function run(sandbox: GitSandbox, argv: string[], env: Record<string, string> = {}): Promise<string> {
  const result = await sandbox.exec(argv, { env: { ...GIT_ENV, ...env }, timeout: COPY_TIMEOUT_SECONDS });
  if (result.exitCode !== 0) throw new Error(`${argv.slice(0, 2).join(' ')} failed: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

/** The copy's folder in the workspace. */
export function copyDirectory(workingDir: string, root: string): string {
  return path.posix.join(workingDir, copyFolderName(root));
}

/** Whether the sandbox already has the copy (a conversation that starts again). */
export async function hasCopy(sandbox: GitSandbox, directory: string): Promise<boolean> {
  const ref = await sandbox.exec(['git', '-C', directory, 'rev-parse', '-q', '--verify', START_REF], {
    env: GIT_ENV,
  });
  return ref.exitCode === 0;
}

/**
 * Copies a repository of this machine into the sandbox's workspace through the engine's archive API (so a
 * remote engine works too): the history, and the working tree as it is (or the selected branch checked
 * out). Its state becomes the baseline commit, kept as START_REF.
 */
export async function copyIntoSandbox(options: CopyOptions): Promise<CopiedRepository> {
  const { repository, sandbox } = options;
  const directory = copyDirectory(options.workingDir, repository.root);
  const owner = options.owner ?? (await sandboxUser(sandbox));
  // Built (and refused when too large) before the copy's folder is made.
  const { archive } = await snapshotArchive(repository, {
    owner,
    progress: options.progress,
    notice: options.notice,
  });
  await options.files.upload(directory, Readable.from(archive, { objectMode: false }));
  const roots = options.survey ? surveyRoots(options.survey(directory)) : null;
  const finish = [
    directory,
    repository.branch ?? '',
    repository.head ?? '',
    repository.withWorkingTree ? 'working' : 'branch',
    START_SNAPSHOT_MESSAGE,
  ];
  if (!roots) {
    const baseline = await run(sandbox, ['sh', '-c', FINISH_SCRIPT, 'sh', ...finish], options.identity);
    return { directory, baseline: baseline.split('\n').at(-1) ?? baseline };
  }
  const survey = [SURVEY_SCRIPT, ...surveyArgs(roots, null)];
  const result = await sandbox.exec(['sh', '-c', FINISH_SCRIPT + SURVEY_AFTER, 'sh', ...finish, ...survey], {
    env: { ...GIT_ENV, ...options.identity },
    timeout: COPY_TIMEOUT_SECONDS,
  });
  const marker = result.stdout.indexOf('\0survey\0');
  if (marker < 0) throw new Error(`sh -c failed: ${result.stderr.trim()}`);
  const baseline = result.stdout.slice(0, marker).trim();
  const surveyed = result.stdout.slice(marker + '\0survey\0'.length);
  return {
    directory,
    baseline: baseline.split('\n').at(-1) ?? baseline,
    survey: result.exitCode === 0 ? parseSurvey(surveyed, roots, result.truncated) : null,
  };
}
