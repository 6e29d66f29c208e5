import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import type { LocalRepositoryInfo } from '../../shared/api/local-repository';
import type { ConversationWorkspace } from '../conversations/workspace-access';
import { HttpError, httpError } from '../http/errors';
import { hostGit } from './host-git';
import { isSafeRepositoryPath } from './repository-path';
import { WORKING_TREE_INDEX } from './working-tree-index';

/** A hostile sandbox could hand back anything: a bundle larger than this is refused. */
const MAX_BUNDLE_BYTES = 2 * 1024 ** 3;
/** A bundle's header (its refs and prerequisites) longer than this is refused. */
const MAX_BUNDLE_HEADER_BYTES = 1024 ** 2;
const EXPORT_TIMEOUT_SECONDS = 10 * 60;
const UNCHANGED = 'unchanged';

// Run as the sandbox user: the agent's work in the repository $1 as one commit (message $2) on top of its
// HEAD (the commit itself when nothing is uncommitted), and a bundle of it and the baseline $3 without the
// history the user's repository has (before $4, when not empty). Prints the commit and the bundle's path,
// or UNCHANGED when the agent did nothing since the baseline.
const BUNDLE_SCRIPT = `set -e
cd "$1"
${WORKING_TREE_INDEX}
tree=$(GIT_INDEX_FILE=$index git write-tree)
rm -f "$index"
head=$(git rev-parse -q --verify 'HEAD^{commit}' || echo "$3")
if [ "$tree" = "$(git rev-parse "$head^{tree}")" ]; then commit=$head; else commit=$(git commit-tree "$tree" -p "$head" -m "$2"); fi
if [ "$commit" = "$3" ]; then echo ${UNCHANGED}; exit 0; fi
git update-ref refs/dockhand/export "$commit"
git update-ref refs/dockhand/baseline "$3"
bundle=$(mktemp)
if [ -n "$4" ]; then
  git bundle create "$bundle" refs/dockhand/export refs/dockhand/baseline "^$4" 2>/dev/null
else
  git bundle create "$bundle" refs/dockhand/export refs/dockhand/baseline 2>/dev/null
fi
echo "$commit $bundle"`;

/** The agent's work, fetched from the sandbox into a scratch repository of this machine. */
export interface ExportedWork {
  /** The commit with all of the agent's work. */
  commit: string;
  /** A bare repository of Dockhand's own that borrows the user's objects and holds the agent's. */
  scratch: string;
}

async function receiveBundle(
  workspace: ConversationWorkspace,
  sandboxPath: string,
  target: string,
): Promise<void> {
  const archive = (await workspace.files.download(sandboxPath).catch((error: unknown) => {
    throw httpError(502, `The sandbox did not hand over the agent’s work: ${messageOf(error)}`);
  })) as Readable;
  const extract = tar.extract();
  archive.pipe(extract);
  let received = false;
  try {
    for await (const entry of extract) {
      if (entry.header.type !== 'file')
        throw httpError(502, 'The sandbox handed over something other than a file');
      if ((entry.header.size ?? 0) > MAX_BUNDLE_BYTES)
        throw httpError(409, 'The agent’s work is too large to bring back');
      await pipeline(entry, createWriteStream(target, { mode: 0o600 }));
      received = true;
      break;
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw httpError(502, `The sandbox did not hand over the agent’s work: ${messageOf(error)}`);
  } finally {
    archive.destroy();
  }
  if (!received) throw httpError(502, 'The sandbox did not hand over the agent’s work');
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What a bundle's header says: its refs, and where its pack starts. */
interface BundleHeader {
  refs: Map<string, string>;
  packOffset: number;
}

/** A bundle whose header is not one git writes is refused, as are bundles of a partial history. */
async function readBundleHeader(file: string): Promise<BundleHeader> {
  const handle = await open(file, 'r');
  let header: Buffer;
  try {
    const start = Buffer.alloc(MAX_BUNDLE_HEADER_BYTES);
    const { bytesRead } = await handle.read(start, 0, start.length, 0);
    header = start.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  const end = header.indexOf('\n\n');
  const bad = (why: string) => httpError(502, `The sandbox handed over a bundle git does not write: ${why}`);
  if (end < 0) throw bad('no end of header');
  const [signature, ...lines] = header.subarray(0, end).toString('utf8').split('\n');
  if (signature !== '# v2 git bundle' && signature !== '# v3 git bundle') throw bad('unknown version');
  const refs = new Map<string, string>();
  for (const line of lines) {
    if (/^@object-format=(sha1|sha256)$/.test(line) || /^-[0-9a-f]{40,64}( |$)/.test(line)) continue;
    const ref = /^([0-9a-f]{40,64}) (refs\/dockhand\/(export|baseline))$/.exec(line);
    if (!ref || refs.has(ref[2] as string)) throw bad(line.slice(0, 100));
    refs.set(ref[2] as string, ref[1] as string);
  }
  return { refs, packOffset: end + 2 };
}

/**
 * Indexes the bundle's pack into the scratch repository with git's strictest object checks: `index-pack
 * --strict` runs fsck on every object (a tree naming `.git` in any spelling, a `.gitmodules` link, a bad
 * commit …) and checks that everything it names exists. (`git fetch` of a bundle does not run these checks,
 * whatever `fetch.fsckObjects` says.) 409 with git's finding when an object is refused.
 */
async function indexChecked(bundle: string, scratch: string): Promise<Map<string, string>> {
  const { refs, packOffset } = await readBundleHeader(bundle);
  const indexed = await hostGit(scratch, ['index-pack', '--strict', '--fix-thin', '--stdin'], {
    input: createReadStream(bundle, { start: packOffset }),
  });
  if (indexed.exitCode !== 0) {
    throw httpError(
      409,
      `The agent’s work holds objects git refuses, so nothing was brought back: ${indexed.stderr.slice(0, 2000)}`,
    );
  }
  return refs;
}

/** Parses `git diff-tree`/`git log --raw -z` output: each entry's new mode and path. */
export function parseRawChanges(
  output: Buffer,
): { oldMode: string; newMode: string; oldId: string; newId: string; path: string }[] {
  const fields = output.toString('latin1').split('\0');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const changes = [];
  for (let index = 0; index < fields.length; index++) {
    const header = (fields[index] ?? '').replace(/^\n+/, '');
    if (!header.startsWith(':')) continue;
    const [oldMode = '', newMode = '', oldId = '', newId = ''] = header.slice(1).split(' ');
    const raw = fields[++index] ?? '';
    let decoded: string;
    try {
      decoded = decoder.decode(Buffer.from(raw, 'latin1'));
    } catch {
      decoded = '\0'; // not UTF-8: refused by isSafeRepositoryPath
    }
    changes.push({ oldMode, newMode, oldId, newId, path: decoded });
  }
  return changes;
}

/** 409 naming the paths, added or changed in any of the agent's commits, that may not be written or committed. */
async function checkCommittedPaths(scratch: string, commit: string, start: string | null): Promise<void> {
  const logged = await hostGit(scratch, [
    'log',
    '-z',
    '--raw',
    '--no-renames',
    '--no-abbrev',
    '--diff-merges=separate',
    '--root',
    '--format=',
    commit,
    ...(start ? [`^${start}`] : []),
  ]);
  if (logged.exitCode !== 0) throw new Error(`Listing the agent’s commits failed: ${logged.stderr}`);
  const refused = new Set(
    parseRawChanges(logged.stdout)
      .filter((change) => !/^0+$/.test(change.newMode))
      .filter((change) => !isSafeRepositoryPath(change.path, { link: change.newMode === '120000' }))
      .map((change) => JSON.stringify(change.path)),
  );
  if (refused.size > 0) {
    throw httpError(
      409,
      `The agent’s work names paths git refuses to check out, so nothing was brought back: ${[...refused].slice(0, 20).join(', ')}`,
    );
  }
}

/**
 * Makes the agent's work one commit in the sandbox and brings it to `tempDir` as a git bundle, whose
 * objects are checked strictly (`indexChecked`, `checkCommittedPaths`) as they go into a scratch repository
 * of Dockhand's own. 409 when there is nothing to bring or the work is refused; 502 when the sandbox fails
 * to answer as it should.
 */
export async function exportWork(
  workspace: ConversationWorkspace,
  info: LocalRepositoryInfo,
  commonDir: string,
  options: { message: string; identity: Record<string, string>; tempDir: string },
): Promise<ExportedWork> {
  const made = await workspace.exec(
    [
      'sh',
      '-c',
      BUNDLE_SCRIPT,
      'sh',
      workspace.repositoryDir,
      options.message,
      info.baseline_commit,
      info.start_commit ?? '',
    ],
    { env: { ...options.identity, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' }, timeout: EXPORT_TIMEOUT_SECONDS },
  );
  if (made.exitCode !== 0)
    throw httpError(
      502,
      `Collecting the agent’s work in the sandbox failed: ${made.stderr.trim().slice(0, 2000)}`,
    );
  const answer = made.stdout.trim();
  if (answer === UNCHANGED)
    throw httpError(409, 'The agent has changed nothing since the conversation started');
  const [commit = '', sandboxBundle = ''] = answer.split(' ');
  if (!/^[0-9a-f]{40,64}$/.test(commit) || !sandboxBundle.startsWith('/')) {
    throw httpError(502, `Unexpected answer from the sandbox: ${answer.slice(0, 200)}`);
  }
  const bundle = path.join(options.tempDir, 'work.bundle');
  try {
    await receiveBundle(workspace, sandboxBundle, bundle);
  } finally {
    await workspace.exec(['rm', '-f', '--', sandboxBundle]).catch(() => undefined);
  }
  const scratch = path.join(options.tempDir, 'scratch.git');
  await mkdir(scratch);
  await checked(scratch, ['init', '-q', '--bare', scratch]);
  await writeFile(
    path.join(scratch, 'objects', 'info', 'alternates'),
    `${path.join(commonDir, 'objects')}\n`,
  );
  const refs = await indexChecked(bundle, scratch);
  // The baseline is left out of the bundle when the user's repository has it (no uncommitted work).
  const baseline = refs.get('refs/dockhand/baseline');
  if (refs.get('refs/dockhand/export') !== commit || (baseline && baseline !== info.baseline_commit))
    throw httpError(502, 'The sandbox’s bundle does not hold the agent’s commit and the baseline');
  for (const id of [commit, info.baseline_commit]) {
    const found = await hostGit(scratch, ['rev-parse', '-q', '--verify', `${id}^{commit}`]);
    if (found.stdout.toString('utf8').trim() !== id)
      throw httpError(502, `The sandbox’s bundle does not hold the commit ${id}`);
  }
  await checked(scratch, ['update-ref', 'refs/dockhand/export', commit]);
  await checkCommittedPaths(scratch, commit, info.start_commit);
  return { commit, scratch };
}

/** Runs host git and throws its message when it fails. */
export async function checked(directory: string, args: string[]): Promise<string> {
  const result = await hostGit(directory, args);
  if (result.exitCode !== 0) throw new Error(`git ${args[0]} failed: ${result.stderr}`);
  return result.stdout.toString('utf8');
}
