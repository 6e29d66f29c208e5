import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ValidationFailed } from '../http/validation';
import { hostGit, hostGitLine } from './host-git';

/** A git working tree on this machine, as a conversation starts from it. */
export interface LocalRepository {
  /** The working tree's top folder (its real path). */
  root: string;
  /** The folder with the repository's objects and refs (`.git`, or the main one of a linked worktree). */
  commonDir: string;
  /** The branch the copy checks out; null for a detached HEAD. */
  branch: string | null;
  /** The commit it starts from; null in a repository without commits. */
  head: string | null;
  /** Whether the copy is the working tree as it is now (the current branch), else the branch's last commit. */
  withWorkingTree: boolean;
}

type Field = 'repository' | 'selected_branch';

function invalid(field: Field, text: string, input: unknown): ValidationFailed {
  return new ValidationFailed([
    { type: 'value_error', loc: ['body', field], msg: `Value error, ${text}`, input },
  ]);
}

/** The absolute path a `repository` value names: a path, or a `file://` URL of this machine. */
function requestedPath(value: string): string {
  if (value.startsWith('file://')) {
    try {
      return fileURLToPath(value);
    } catch {
      throw invalid('repository', `${value} is not a file:// URL of this machine`, value);
    }
  }
  if (!path.isAbsolute(value)) {
    throw invalid('repository', `repository must be an absolute path (${value} is relative)`, value);
  }
  return value;
}

async function existingFolder(folder: string, input: string): Promise<string> {
  const real = await realpath(folder).catch(() => null);
  if (!real) throw invalid('repository', `${folder} does not exist`, input);
  if (!(await stat(real)).isDirectory()) throw invalid('repository', `${folder} is not a folder`, input);
  return real;
}

/** `branch` if it is a branch of the repository, else a 422 naming it. */
async function checkedBranch(root: string, branch: string): Promise<string> {
  const valid = await hostGitLine(root, ['check-ref-format', '--branch', branch]);
  if (valid !== branch || branch.startsWith('-')) {
    throw invalid('selected_branch', `${branch} is not a valid branch name`, branch);
  }
  const commit = await hostGitLine(root, ['rev-parse', '-q', '--verify', `refs/heads/${branch}^{commit}`]);
  if (!commit) throw invalid('selected_branch', `unknown branch ${branch} in ${root}`, branch);
  return commit;
}

/**
 * Checks a `repository` value that names a git working tree on this machine and what the copy starts from:
 * the current branch with the working tree as it is, or `selectedBranch` at its last commit. Invalid input
 * is a 422 that names the problem: a relative path, a missing folder, not a git repository (or one without a
 * working tree), an unknown branch.
 */
export async function resolveLocalRepository(
  value: string,
  selectedBranch: string | null,
): Promise<LocalRepository> {
  const folder = await existingFolder(requestedPath(value), value);
  const top = await hostGit(folder, [
    'rev-parse',
    '--is-bare-repository',
    '--show-toplevel',
    '--git-common-dir',
  ]);
  if (top.exitCode !== 0) {
    const owner = top.stderr.includes('dubious ownership') ? ' (it belongs to another user)' : '';
    throw invalid('repository', `${folder} is not a git repository${owner}`, value);
  }
  const [bare, toplevel = '', common = ''] = top.stdout.toString('utf8').split('\n');
  if (bare === 'true' || !toplevel) {
    throw invalid('repository', `${folder} is a git repository without a working tree`, value);
  }
  const root = await realpath(toplevel);
  const commonDir = await realpath(path.resolve(folder, common));
  const current = await hostGitLine(root, ['symbolic-ref', '-q', '--short', 'HEAD']);
  const headCommit = await hostGitLine(root, ['rev-parse', '-q', '--verify', 'HEAD^{commit}']);
  if (selectedBranch && selectedBranch !== current) {
    const head = await checkedBranch(root, selectedBranch);
    return { root, commonDir, branch: selectedBranch, head, withWorkingTree: false };
  }
  return { root, commonDir, branch: current || null, head: headCommit || null, withWorkingTree: true };
}
