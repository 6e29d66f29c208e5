import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readFile, readlink, rename, symlink, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HttpError } from '../http/errors';
import { hostGit } from './host-git';
import { isSafeRepositoryPath } from './repository-path';

/** A file's state: missing, a file's bytes, a link's target, or something Dockhand does not change. */
type FileState =
  | { kind: 'missing' }
  | { kind: 'file'; data: Buffer; executable: boolean }
  | { kind: 'link'; target: string }
  | { kind: 'other' };

interface Change {
  path: string;
  before: FileState;
  after: FileState;
}

export interface AppliedChange {
  path: string;
  status: 'A' | 'M' | 'D';
}

async function blob(scratch: string, sha: string): Promise<Buffer> {
  const result = await hostGit(scratch, ['cat-file', 'blob', sha]);
  if (result.exitCode !== 0) throw new Error(`Reading ${sha} failed: ${result.stderr}`);
  return result.stdout;
}

async function stateAt(scratch: string, mode: string, sha: string): Promise<FileState> {
  if (/^0+$/.test(mode)) return { kind: 'missing' };
  if (mode === '100644' || mode === '100755')
    return { kind: 'file', data: await blob(scratch, sha), executable: mode === '100755' };
  if (mode === '120000') return { kind: 'link', target: (await blob(scratch, sha)).toString('utf8') };
  return { kind: 'other' };
}

/** The changes between two commits of the scratch repository, with both sides' contents. */
async function changesBetween(scratch: string, from: string, to: string): Promise<Change[]> {
  const raw = await hostGit(scratch, ['diff-tree', '-r', '-z', '--no-renames', '--raw', from, to]);
  if (raw.exitCode !== 0) throw new Error(`Comparing the agent's work failed: ${raw.stderr}`);
  const fields = raw.stdout.toString('utf8').split('\0');
  const changes: Change[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const [oldMode = '', newMode = '', oldSha = '', newSha = ''] = (fields[index] ?? '').slice(1).split(' ');
    const file = fields[index + 1] ?? '';
    changes.push({
      path: file,
      before: await stateAt(scratch, oldMode, oldSha),
      after: await stateAt(scratch, newMode, newSha),
    });
  }
  return changes;
}

/** Whether every folder above `relative` is a real folder inside `root` (or missing), never a link. */
async function foldersAreReal(root: string, relative: string): Promise<boolean> {
  const segments = relative.split('/').slice(0, -1);
  let current = root;
  for (const segment of segments) {
    current = path.join(current, segment);
    const info = await lstat(current).catch(() => null);
    if (!info) return true;
    if (!info.isDirectory()) return false;
  }
  return true;
}

/** The file at `relative` in the user's tree, never following a link. */
async function currentState(root: string, relative: string): Promise<FileState> {
  const file = path.join(root, relative);
  const info = await lstat(file).catch(() => null);
  if (!info) return { kind: 'missing' };
  if (info.isSymbolicLink()) return { kind: 'link', target: await readlink(file) };
  if (info.isFile())
    return { kind: 'file', data: await readFile(file), executable: (info.mode & 0o111) !== 0 };
  return { kind: 'other' };
}

function sameContent(a: FileState, b: FileState): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'file' && b.kind === 'file') return a.data.equals(b.data);
  if (a.kind === 'link' && b.kind === 'link') return a.target === b.target;
  return a.kind === 'missing';
}

/** Creates the missing folders above `relative`, each checked not to be a link. */
async function makeFolders(root: string, relative: string): Promise<void> {
  let current = root;
  for (const segment of relative.split('/').slice(0, -1)) {
    current = path.join(current, segment);
    const info = await lstat(current).catch(() => null);
    if (!info) await mkdir(current);
    else if (!info.isDirectory()) throw new Error(`${current} is not a folder`);
  }
}

/** Writes a file's new state beside it and renames it into place (a rename replaces a link, never follows it). */
async function writeState(root: string, relative: string, state: FileState): Promise<void> {
  const file = path.join(root, relative);
  if (state.kind === 'missing') {
    await unlink(file).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    return;
  }
  await makeFolders(root, relative);
  const temporary = path.join(path.dirname(file), `.dockhand-${randomBytes(6).toString('hex')}.tmp`);
  if (state.kind === 'file') {
    await writeFile(temporary, state.data, { mode: state.executable ? 0o755 : 0o644, flag: 'wx' });
  } else if (state.kind === 'link') {
    await symlink(state.target, temporary);
  }
  await rename(temporary, file);
}

function statusOf(change: Change): AppliedChange['status'] {
  if (change.before.kind === 'missing') return 'A';
  return change.after.kind === 'missing' ? 'D' : 'M';
}

/**
 * Applies the changes from `baseline` to `commit` (commits of the scratch repository) to the user's working
 * tree `root`. A file is changed only where it is still as it was at the start (or already as the agent
 * left it); when any is not, nothing is changed and the answer is 409 naming them. Paths that are unsafe
 * (`..`, `.git`) or lead through a link are conflicts too. Nothing of the repository's is run.
 */
export async function applyToWorkingTree(
  root: string,
  scratch: string,
  baseline: string,
  commit: string,
): Promise<AppliedChange[]> {
  const changes = await changesBetween(scratch, baseline, commit);
  const conflicts: string[] = [];
  const pending: Change[] = [];
  for (const change of changes) {
    const safe =
      isSafeRepositoryPath(change.path) &&
      change.after.kind !== 'other' &&
      (await foldersAreReal(root, change.path));
    const current = safe ? await currentState(root, change.path) : null;
    if (!current || current.kind === 'other') conflicts.push(change.path);
    else if (sameContent(current, change.after)) continue;
    else if (sameContent(current, change.before)) pending.push(change);
    else conflicts.push(change.path);
  }
  if (conflicts.length > 0) {
    throw new HttpError(409, {
      detail: `These files changed in ${root} since the conversation started, so nothing was applied: ${conflicts.join(', ')}`,
      conflicts,
    });
  }
  for (const change of pending) await writeState(root, change.path, change.after);
  return pending.map((change) => ({ path: change.path, status: statusOf(change) }));
}
