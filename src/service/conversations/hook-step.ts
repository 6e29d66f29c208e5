import path from 'node:path';
import type { NewEvent } from '../../shared/api/events';
import type { SandboxExec } from '../sandbox/sandbox-workspace';
import { SandboxFileError, type SandboxFiles } from '../sandbox/files/sandbox-files';
import { GitHookError, installPreCommitHook, PRE_COMMIT_SCRIPT, preCommitHookState } from './git-hooks';
import { hiddenObservation, type RepositoryCode } from './repository-code';
import { MAX_REPOSITORY_SCRIPT_BYTES } from './setup-script';

export interface HookStepDeps {
  exec: SandboxExec;
  files: Pick<SandboxFiles, 'read' | 'stat'>;
  repoDir: string;
  /** The user's say over repository code: the id of the action it runs under, or null when refused. */
  approve(code: RepositoryCode): Promise<number | null>;
  record(event: NewEvent): void;
  /** A hook that could not be read or installed: the start goes on with this warning. */
  warn(message: string): void;
}

/** Step 7 under way: the user's answer about the hook, then its installation. */
export interface HookStep {
  /** The id of the action the hook is installed under, or null (nothing to install, refused, a warning). */
  approved: Promise<number | null>;
  /** The hook in place (or warned about). */
  installed: Promise<void>;
}

/**
 * Step 7, the `.openhands/pre-commit.sh` hook, once `previous` (the setup script) is done, as before: the
 * user is asked about installing it (when the repository has one without its wrapper), then it is installed. The start awaits
 * `approved` before the agent starts, so that every question about repository code comes first; the agent's
 * commands wait for `installed`.
 */
export function gitHookStep(previous: Promise<unknown>, deps: HookStepDeps): HookStep {
  const approved = previous.then(() => approveGitHook(deps));
  const installed = approved.then((actionId) => installGitHook(deps, actionId));
  return { approved, installed };
}

async function approveGitHook(deps: HookStepDeps): Promise<number | null> {
  const script = path.posix.join(deps.repoDir, PRE_COMMIT_SCRIPT);
  try {
    // Most repositories have no such script: the start's survey says so without asking git.
    if (!(await deps.files.stat(script))) return null;
    if ((await preCommitHookState(deps.exec, deps.repoDir)) !== 'missing') return null;
    return await deps.approve({
      kind: 'git_hook',
      name: PRE_COMMIT_SCRIPT,
      content: (await readHook(deps, script)).toString('utf8'),
      command: `${script} # as the repository's pre-commit hook`,
    });
  } catch (error) {
    return hookWarning(deps, error);
  }
}

/** The hook's text as shown to the user, at most MAX_REPOSITORY_SCRIPT_BYTES (a larger one is a warning). */
async function readHook(deps: HookStepDeps, script: string): Promise<Buffer> {
  try {
    return await deps.files.read(script, { maxBytes: MAX_REPOSITORY_SCRIPT_BYTES });
  } catch (error) {
    if (error instanceof SandboxFileError && error.code === 'too_large') {
      throw new GitHookError(
        `${PRE_COMMIT_SCRIPT} is larger than ${MAX_REPOSITORY_SCRIPT_BYTES} bytes: it was not installed.`,
      );
    }
    throw error;
  }
}

async function installGitHook(deps: HookStepDeps, actionId: number | null): Promise<void> {
  if (actionId === null) return;
  try {
    await installPreCommitHook(deps.exec, deps.repoDir);
    deps.record(hiddenObservation('run', `Installed ${PRE_COMMIT_SCRIPT} as the pre-commit hook.`, actionId));
  } catch (error) {
    hookWarning(deps, error);
  }
}

/** Only a hook's own failures are warnings; anything else fails the start. */
function hookWarning(deps: HookStepDeps, error: unknown): null {
  if (!(error instanceof GitHookError)) throw error;
  deps.warn(error.message);
  return null;
}
