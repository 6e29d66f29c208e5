import { posix } from 'node:path';
import type { GitChange, GitChangeStatus } from '../../shared/api/workspace';
import { httpError } from '../http/errors';
import { CHANGES_SINCE_SCRIPT, parseNameStatus } from '../local-repository/working-tree-index';
import type { ConversationWorkspace, ErrorLocation, WorkspacePath } from './workspace-access';
import { MAX_OPENED_FILE_BYTES, readBounded, tooLargeError } from './workspace-text';

const GIT_TIMEOUT_SECONDS = 60;

/**
 * The environment of git commands on a workspace: no repository above the workspace is found, status
 * takes no lock the agent's own git commands could trip over, messages stay in English.
 */
export function gitEnvironment(workspace: ConversationWorkspace): Record<string, string> {
  return {
    GIT_CEILING_DIRECTORIES: posix.dirname(workspace.workingDir),
    GIT_OPTIONAL_LOCKS: '0',
    LC_ALL: 'C',
  };
}

function git(workspace: ConversationWorkspace, directory: string, args: string[]) {
  return workspace.exec(['git', '-C', directory, ...args], {
    env: gitEnvironment(workspace),
    timeout: GIT_TIMEOUT_SECONDS,
  });
}

interface RepositoryRoot {
  /** The repository's top folder (its real path). */
  path: string;
  /** That folder relative to the workspace (`""` when the workspace is the repository). */
  prefix: string;
}

function isBelow(relative: string): boolean {
  return relative !== '..' && !relative.startsWith('../');
}

/** The conversation's repository inside the workspace, else 404 `Not a git repository`. */
async function repositoryRoot(workspace: ConversationWorkspace): Promise<RepositoryRoot> {
  const [top, root] = await Promise.all([
    git(workspace, workspace.repositoryDir, ['rev-parse', '--show-toplevel']),
    workspace.realpath(workspace.workingDir),
  ]);
  const path = top.stdout.replace(/\n$/, '');
  const prefix = root === null ? '..' : posix.relative(root, path);
  if (top.exitCode !== 0 || !isBelow(prefix)) throw httpError(404, 'Not a git repository');
  return { path, prefix };
}

function changeStatus(code: string): GitChangeStatus {
  if (code === '??') return 'A';
  if (code.includes('U') || code === 'AA' || code === 'DD') return 'U';
  if (code.startsWith('R')) return 'R';
  if (code.includes('D')) return 'D';
  if (code.startsWith('A') || code.startsWith('C')) return 'A';
  return 'M';
}

/**
 * The entries of `git status --porcelain=v1 -z`: untracked files count as added, unmerged ones as `U`;
 * a rename or copy is reported at its new path.
 */
export function parseStatus(output: string): GitChange[] {
  const fields = output.split('\0');
  const changes: GitChange[] = [];
  for (let index = 0; index < fields.length; index++) {
    const field = fields[index];
    if (!field) continue;
    const code = field.slice(0, 2);
    // A rename or copy is followed by the path it came from.
    if (/[RC]/.test(code)) index++;
    changes.push({ status: changeStatus(code), path: field.slice(3) });
  }
  return changes;
}

/** NUL-separated output without its last entry where the output was cut off at MAX_COMMAND_OUTPUT_BYTES. */
function completeEntries(result: { stdout: string; truncated: boolean }): string {
  return result.truncated ? result.stdout.slice(0, result.stdout.lastIndexOf('\0') + 1) : result.stdout;
}

/** What changed since the baseline commit: the agent's commits and its work in the working tree. */
async function changesSinceBaseline(workspace: ConversationWorkspace, root: string, baseline: string) {
  const result = await workspace.exec(['sh', '-c', CHANGES_SINCE_SCRIPT, 'sh', root, baseline], {
    env: gitEnvironment(workspace),
    timeout: GIT_TIMEOUT_SECONDS,
  });
  if (result.exitCode !== 0) throw new Error(`git diff failed: ${result.stderr.trim()}`);
  return parseNameStatus(completeEntries(result)).map((entry) => ({
    status: changeStatus(entry.status === 'A' ? '??' : entry.status),
    path: entry.path,
  }));
}

/**
 * What changed in the repository since HEAD (since the starting snapshot for a repository copied from this
 * machine), with paths relative to the workspace. Output longer than MAX_COMMAND_OUTPUT_BYTES lists the
 * changes that fit (its cut-off last entry dropped).
 */
export async function gitChanges(workspace: ConversationWorkspace): Promise<GitChange[]> {
  const root = await repositoryRoot(workspace);
  let changes: GitChange[];
  if (workspace.reviewBase) changes = await changesSinceBaseline(workspace, root.path, workspace.reviewBase);
  else {
    const status = await git(workspace, root.path, [
      'status',
      '--porcelain=v1',
      '-z',
      '--untracked-files=all',
    ]);
    if (status.exitCode !== 0) throw new Error(`git status failed: ${status.stderr.trim()}`);
    changes = parseStatus(completeEntries(status));
  }
  return changes.map((change) => ({
    status: change.status,
    path: root.prefix ? `${root.prefix}/${change.path}` : change.path,
  }));
}

/**
 * A file in the working tree and at HEAD (or the starting snapshot), `""` where it does not exist; 422 (at
 * `loc`) when either is over MAX_OPENED_FILE_BYTES, as for opening a file.
 */
export async function gitDiff(
  workspace: ConversationWorkspace,
  file: WorkspacePath,
  requested: string,
  loc: ErrorLocation,
): Promise<{ modified: string; original: string }> {
  const root = await repositoryRoot(workspace);
  const inRepository = posix.relative(root.path, file.real);
  if (!inRepository || !isBelow(inRepository)) {
    throw httpError(404, `${file.relative || '.'} is not in the git repository`);
  }
  const [original, current] = await Promise.all([
    git(workspace, root.path, ['cat-file', 'blob', `${workspace.reviewBase ?? 'HEAD'}:${inRepository}`]),
    workspace.files.stat(file.real),
  ]);
  const tooLarge = () => tooLargeError(loc, requested, 'diff');
  if (original.truncated || Buffer.byteLength(original.stdout) > MAX_OPENED_FILE_BYTES) throw tooLarge();
  if (current?.type === 'file' && current.size > MAX_OPENED_FILE_BYTES) throw tooLarge();
  const modified =
    current?.type === 'file'
      ? (await readBounded(workspace, file, requested, loc, 'diff')).toString('utf8')
      : '';
  return { modified, original: original.exitCode === 0 ? original.stdout : '' };
}
