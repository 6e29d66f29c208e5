import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import type { LocalRepositoryInfo } from '../../shared/api/local-repository';
import type { ConversationWorkspace } from '../conversations/workspace-access';
import { httpError } from '../http/errors';
import { hostGit } from './host-git';
import { WORKING_TREE_INDEX } from './working-tree-index';

/** A hostile sandbox could hand back anything: a bundle larger than this is refused. */
const MAX_BUNDLE_BYTES = 2 * 1024 ** 3;
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
  bundle: string;
  /** A bare repository of Dockhand's own that borrows the user's objects and holds the agent's. */
  scratch: string;
}

async function receiveBundle(
  workspace: ConversationWorkspace,
  sandboxPath: string,
  target: string,
): Promise<void> {
  const archive = (await workspace.files.download(sandboxPath)) as Readable;
  const extract = tar.extract();
  archive.pipe(extract);
  for await (const entry of extract) {
    if (entry.header.type !== 'file' || (entry.header.size ?? 0) > MAX_BUNDLE_BYTES) {
      archive.destroy();
      throw httpError(409, 'The agent’s work is too large to bring back');
    }
    await pipeline(entry, createWriteStream(target, { mode: 0o600 }));
    break;
  }
  archive.destroy();
}

/**
 * Makes the agent's work one commit in the sandbox and brings it to `tempDir` as a git bundle, which is
 * fetched (objects checked) into a scratch repository of Dockhand's own. 409 when there is nothing to bring.
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
  if (made.exitCode !== 0) throw new Error(`Collecting the agent's work failed: ${made.stderr.trim()}`);
  const answer = made.stdout.trim();
  if (answer === UNCHANGED)
    throw httpError(409, 'The agent has changed nothing since the conversation started');
  const [commit = '', sandboxBundle = ''] = answer.split(' ');
  if (!/^[0-9a-f]{40,64}$/.test(commit) || !sandboxBundle.startsWith('/')) {
    throw new Error(`Unexpected answer from the sandbox: ${answer.slice(0, 200)}`);
  }
  const bundle = path.join(options.tempDir, 'work.bundle');
  try {
    await receiveBundle(workspace, sandboxBundle, bundle);
  } finally {
    await workspace.exec(['rm', '-f', '--', sandboxBundle]);
  }
  const scratch = path.join(options.tempDir, 'scratch.git');
  await mkdir(scratch);
  await checked(scratch, ['init', '-q', '--bare', scratch]);
  await writeFile(
    path.join(scratch, 'objects', 'info', 'alternates'),
    `${path.join(commonDir, 'objects')}\n`,
  );
  await checked(scratch, [
    'fetch',
    '-q',
    '--no-tags',
    '--no-write-fetch-head',
    bundle,
    'refs/dockhand/*:refs/dockhand/*',
  ]);
  const fetched = await hostGit(scratch, ['rev-parse', '-q', '--verify', 'refs/dockhand/export^{commit}']);
  if (fetched.stdout.toString('utf8').trim() !== commit)
    throw new Error('The bundle does not hold the agent’s commit');
  return { commit, bundle, scratch };
}

/** Runs host git and throws its message when it fails. */
export async function checked(directory: string, args: string[]): Promise<string> {
  const result = await hostGit(directory, args);
  if (result.exitCode !== 0) throw new Error(`git ${args[0]} failed: ${result.stderr}`);
  return result.stdout.toString('utf8');
}
