import { createHash, randomBytes } from 'node:crypto';
import { constants, createReadStream, createWriteStream, type BigIntStats } from 'node:fs';
import { lstat, mkdir, open, readlink, rename, rmdir, symlink, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HttpError, httpError } from '../http/errors';
import { parseRawChanges } from './export-bundle';
import { hostGit, hostGitStream } from './host-git';
import { isSafeRepositoryPath } from './repository-path';

/**
 * Apply brings back no file larger than this (409 naming it): the agent's work can hold files of any size,
 * and a file this large belongs in a branch, reviewed there. Contents are streamed, never held.
 */
export const MAX_APPLY_FILE_BYTES = 1024 ** 3;
/** A link's target is read whole: no system takes a longer one. */
const MAX_LINK_BYTES = 4096;

/** One side of a change: its mode (`000000` for missing) and object id. */
interface Side {
  mode: string;
  id: string;
}

interface Change {
  path: string;
  before: Side;
  after: Side;
}

export interface AppliedChange {
  path: string;
  status: 'A' | 'M' | 'D';
}

/** The working tree and the identities of the git directories nothing is ever written into. */
export interface TargetTree {
  root: string;
  /** The repository's `.git` folders (its own and, for a linked worktree, the common one). */
  gitDirs: string[];
}

type Kind = 'missing' | 'file' | 'link' | 'other';

function kindOf(mode: string): Kind {
  if (/^0+$/.test(mode)) return 'missing';
  if (mode === '100644' || mode === '100755') return 'file';
  return mode === '120000' ? 'link' : 'other';
}

/** A folder's identity: device and inode, the same whatever spelling led to it. */
type Identity = string;
const identityOf = (info: BigIntStats): Identity => `${info.dev}:${info.ino}`;

/** The changes between two commits of the scratch repository (no contents read). */
async function changesBetween(scratch: string, from: string, to: string): Promise<Change[]> {
  const raw = await hostGit(scratch, ['diff-tree', '-r', '-z', '--no-renames', '--no-abbrev', from, to]);
  if (raw.exitCode !== 0) throw new Error(`Comparing the agent's work failed: ${raw.stderr}`);
  return parseRawChanges(raw.stdout).map((entry) => ({
    path: entry.path,
    before: { mode: entry.oldMode, id: entry.oldId },
    after: { mode: entry.newMode, id: entry.newId },
  }));
}

/** The sizes of blobs of the scratch repository, by id (`cat-file --batch-check`: no contents read). */
async function blobSizes(scratch: string, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const checked = await hostGit(scratch, ['cat-file', '--batch-check=%(objectname) %(objectsize)'], {
    input: Readable.from([`${ids.join('\n')}\n`]),
  });
  if (checked.exitCode !== 0) throw new Error(`Reading the agent's files failed: ${checked.stderr}`);
  const sizes = new Map<string, number>();
  for (const line of checked.stdout.toString('utf8').split('\n')) {
    const [id = '', size = ''] = line.split(' ');
    if (/^\d+$/.test(size)) sizes.set(id, Number(size));
  }
  return sizes;
}

/** A blob's object id as `git hash-object` computes it (the algorithm of `like`'s length). */
function blobHasher(size: number, like: string) {
  const hash = createHash(like.length === 64 ? 'sha256' : 'sha1');
  hash.update(`blob ${size}\0`);
  return hash;
}

/**
 * Checks the folders above `relative` from `root` down, by identity: each must be a real folder (never a
 * link) and none a git directory, whatever its spelling. Missing ones are created when `created` is given
 * (and listed there), else the answer is null. Returns the identity of the folder holding `relative`.
 */
async function parentFolder(
  tree: TargetTree & { gitIds: Set<Identity> },
  relative: string,
  created?: string[],
): Promise<Identity | null> {
  let current = tree.root;
  let info = await lstat(current, { bigint: true });
  for (const segment of ['', ...relative.split('/').slice(0, -1)]) {
    if (segment) {
      current = path.join(current, segment);
      let found = await lstat(current, { bigint: true }).catch(() => null);
      if (!found && !created) return null;
      if (!found && created) {
        await mkdir(current);
        created.push(current);
        found = await lstat(current, { bigint: true });
      }
      info = found as BigIntStats;
    }
    if (!info.isDirectory() || tree.gitIds.has(identityOf(info)))
      throw new Error(`${current} is not a folder of the working tree`);
  }
  return identityOf(info);
}

/** Whether the user's file at `relative` is as `side` says, never following a link; streamed, not held. */
async function isAs(file: string, side: Side, expectedSize: number | undefined): Promise<boolean> {
  const info = await lstat(file).catch(() => null);
  const kind = kindOf(side.mode);
  if (!info) return kind === 'missing';
  if (info.isSymbolicLink()) {
    if (kind !== 'link') return false;
    const target = Buffer.from(await readlink(file));
    return blobHasher(target.length, side.id).update(target).digest('hex') === side.id;
  }
  if (!info.isFile() || kind !== 'file' || info.size !== expectedSize) return false;
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const hash = blobHasher(info.size, side.id);
    let read = 0;
    for await (const chunk of createReadStream('', {
      fd: handle,
      autoClose: false,
    }) as AsyncIterable<Buffer>) {
      read += chunk.length;
      hash.update(chunk);
    }
    return read === info.size && hash.digest('hex') === side.id;
  } finally {
    await handle.close();
  }
}

/** A free name beside `file` for a temporary file (`.dockhand-*.tmp`). */
function besideName(file: string): string {
  return path.join(path.dirname(file), `.dockhand-${randomBytes(6).toString('hex')}.tmp`);
}

/** Writes `side` (a blob of the scratch repository) to the new file `temporary`, streamed. */
async function stage(scratch: string, side: Side, size: number, temporary: string): Promise<void> {
  const blob = hostGitStream(scratch, ['cat-file', 'blob', side.id]);
  if (kindOf(side.mode) === 'link') {
    const chunks: Buffer[] = [];
    for await (const chunk of blob.stdout as AsyncIterable<Buffer>) chunks.push(chunk);
    if ((await blob.done).exitCode !== 0) throw new Error(`Reading ${side.id} failed`);
    await symlink(Buffer.concat(chunks).toString('utf8'), temporary);
    return;
  }
  const mode = side.mode === '100755' ? 0o755 : 0o644;
  const written = createWriteStream(temporary, { flags: 'wx', mode });
  await pipeline(blob.stdout, written);
  const { exitCode, stderr } = await blob.done;
  if (exitCode !== 0 || written.bytesWritten !== size)
    throw new Error(`Reading ${side.id} failed: ${stderr}`);
}

function statusOf(change: Change): AppliedChange['status'] {
  if (kindOf(change.before.mode) === 'missing') return 'A';
  return kindOf(change.after.mode) === 'missing' ? 'D' : 'M';
}

/** One change on its way in: its new version staged beside it, the original set aside once renamed. */
interface Step {
  change: Change;
  target: string;
  parent: Identity | null;
  staged: string | null;
  aside: string | null;
  placed: boolean;
}

/** Puts every step in place, or, when one fails, puts back what was there and removes what was staged. */
async function placeAll(tree: TargetTree & { gitIds: Set<Identity> }, steps: Step[]): Promise<void> {
  try {
    for (const step of steps) {
      // The folder is checked again just before the rename: it must still be the one staged into.
      if ((await parentFolder(tree, step.change.path)) !== step.parent)
        throw new Error(`${path.dirname(step.target)} changed while the work was applied`);
      if (await lstat(step.target).catch(() => null)) {
        step.aside = besideName(step.target);
        await rename(step.target, step.aside);
      }
      if (step.staged) {
        await rename(step.staged, step.target);
        step.staged = null;
        step.placed = true;
      }
    }
  } catch (error) {
    for (const step of [...steps].reverse()) {
      if (step.placed) await unlink(step.target).catch(() => undefined);
      if (step.aside) await rename(step.aside, step.target).catch(() => undefined);
      step.aside = null;
    }
    throw error;
  } finally {
    for (const step of steps) {
      if (step.staged) await unlink(step.staged).catch(() => undefined);
      if (step.aside) await unlink(step.aside).catch(() => undefined);
    }
  }
}

/** The identities of the repository's git directories. */
async function gitIdentities(gitDirs: string[]): Promise<Set<Identity>> {
  const found = await Promise.all(gitDirs.map((dir) => lstat(dir, { bigint: true }).catch(() => null)));
  return new Set(found.filter((info) => info !== null).map(identityOf));
}

/**
 * Applies the changes from `baseline` to `commit` (commits of the scratch repository) to the user's working
 * tree. A file is changed only where it is still as it was at the start (or already as the agent left it),
 * compared by object id; when any is not, nothing is changed and the answer is 409 naming them. Paths git
 * would refuse (`repository-path.ts`), that lead through a link or into a git directory are conflicts too;
 * files over MAX_APPLY_FILE_BYTES are refused (409). Every new version is first staged beside its target,
 * then all are renamed into place; a failure puts every original back (409). Nothing of the repository's
 * is run.
 */
export async function applyToWorkingTree(
  target: TargetTree,
  scratch: string,
  baseline: string,
  commit: string,
): Promise<AppliedChange[]> {
  const tree = { ...target, gitIds: await gitIdentities(target.gitDirs) };
  const changes = await changesBetween(scratch, baseline, commit);
  const sizes = await blobSizes(
    scratch,
    changes.flatMap((change) =>
      [change.before, change.after]
        .filter((side) => kindOf(side.mode) === 'file' || kindOf(side.mode) === 'link')
        .map((side) => side.id),
    ),
  );
  const tooLarge = changes
    .filter((change) => {
      const size = sizes.get(change.after.id) ?? 0;
      return size > (kindOf(change.after.mode) === 'link' ? MAX_LINK_BYTES : MAX_APPLY_FILE_BYTES);
    })
    .map((change) => change.path);
  if (tooLarge.length > 0) {
    throw httpError(
      409,
      `These files of the agent's work are larger than ${MAX_APPLY_FILE_BYTES / 1024 ** 3} GiB (links: ${MAX_LINK_BYTES} bytes), so nothing was applied (export them as a branch): ${tooLarge.join(', ')}`,
    );
  }
  const conflicts: string[] = [];
  const pending: Change[] = [];
  for (const change of changes) {
    const afterKind = kindOf(change.after.mode);
    const safe =
      isSafeRepositoryPath(change.path, { link: afterKind === 'link' }) &&
      afterKind !== 'other' &&
      (await parentFolder(tree, change.path).then(
        () => true,
        () => false,
      ));
    const file = path.join(tree.root, change.path);
    if (!safe) conflicts.push(change.path);
    else if (await isAs(file, change.after, sizes.get(change.after.id))) continue;
    else if (await isAs(file, change.before, sizes.get(change.before.id))) pending.push(change);
    else conflicts.push(change.path);
  }
  if (conflicts.length > 0) {
    throw new HttpError(409, {
      detail: `These files changed in ${tree.root} since the conversation started, so nothing was applied: ${conflicts.join(', ')}`,
      conflicts,
    });
  }
  const created: string[] = [];
  const steps: Step[] = [];
  let current = '';
  try {
    for (const change of pending) {
      current = change.path;
      const file = path.join(tree.root, change.path);
      const adding = kindOf(change.after.mode) !== 'missing';
      const parent = await parentFolder(tree, change.path, adding ? created : undefined);
      const step: Step = { change, target: file, parent, staged: null, aside: null, placed: false };
      steps.push(step);
      if (adding) {
        step.staged = besideName(file);
        await stage(scratch, change.after, sizes.get(change.after.id) ?? 0, step.staged);
      }
    }
    current = '';
    await placeAll(tree, steps);
  } catch (error) {
    for (const step of steps) if (step.staged) await unlink(step.staged).catch(() => undefined);
    for (const folder of created.reverse()) await rmdir(folder).catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw httpError(
      409,
      `Writing ${current || 'the agent’s work'} in ${tree.root} failed, so nothing was applied: ${reason}`,
    );
  }
  return pending.map((change) => ({ path: change.path, status: statusOf(change) }));
}
