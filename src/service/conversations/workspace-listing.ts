import { httpError } from '../http/errors';
import { type FileInfo, SandboxFileError } from '../sandbox/files/sandbox-files';
import type { ConversationWorkspace, WorkspacePath } from './workspace-access';
import { gitEnvironment } from './workspace-git';

export const MAX_LISTED_FILES = 10_000;

/** Folders a file browser never shows. */
const HIDDEN_NAMES = new Set(['.git', 'node_modules', '__pycache__', '.vscode']);

/** Bytes of names handed to one `git check-ignore`, well below any argument-size limit. */
const NAMES_PER_CHECK = 64 * 1024;

// Run in the listed folder ($1) with the names to check after it; prints the ignored ones, NUL-terminated.
const CHECK_IGNORE_SCRIPT = `cd -- "$1" && shift && printf '%s\\0' "$@" | git check-ignore -z --stdin`;

/** git check-ignore: 1 nothing ignored, 128 not in a repository; 127 the sandbox has no git. */
const NOTHING_IGNORED_EXIT_CODES = new Set([1, 127, 128]);

export interface ListedEntry {
  name: string;
  isFolder: boolean;
}

/** Folders first (ending with `/`), then files, each by name, prefixed with the listed folder; at most 10 000. */
export function arrangeListing(folder: string, entries: ListedEntry[]): string[] {
  const prefix = folder ? `${folder}/` : '';
  const byName = (a: ListedEntry, b: ListedEntry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const folders = entries.filter((e) => e.isFolder).sort(byName);
  const files = entries.filter((e) => !e.isFolder).sort(byName);
  return [...folders.map((e) => `${prefix}${e.name}/`), ...files.map((e) => `${prefix}${e.name}`)].slice(
    0,
    MAX_LISTED_FILES,
  );
}

/** One level of a workspace folder, without the hidden folders and what `.gitignore` files exclude. */
export async function listWorkspaceFolder(
  workspace: ConversationWorkspace,
  folder: WorkspacePath,
): Promise<string[]> {
  let infos: FileInfo[];
  try {
    infos = await workspace.files.list(folder.real);
  } catch (error) {
    if (error instanceof SandboxFileError && error.code === 'not_found')
      throw httpError(404, `Directory not found: ${folder.relative || '.'}`);
    if (error instanceof SandboxFileError && error.code === 'not_directory')
      throw httpError(404, `Not a directory: ${folder.relative}`);
    throw error;
  }
  const visible = infos.filter((info) => !HIDDEN_NAMES.has(info.name));
  const ignored = await ignoredNames(workspace, folder.real, visible);
  const entries: ListedEntry[] = [];
  for (const info of visible) {
    if (!ignored.has(info.name))
      entries.push({ name: info.name, isFolder: await leadsToFolder(workspace, info) });
  }
  return arrangeListing(folder.relative, entries);
}

async function leadsToFolder(workspace: ConversationWorkspace, info: FileInfo): Promise<boolean> {
  if (info.type !== 'symlink') return info.type === 'directory';
  return (await workspace.files.stat(info.path))?.type === 'directory';
}

/**
 * The names git ignores in `directory` (folders are asked about with a trailing `/`, so that folder-only
 * patterns apply); none when it is not in a git repository or the sandbox has no git.
 */
async function ignoredNames(
  workspace: ConversationWorkspace,
  directory: string,
  infos: FileInfo[],
): Promise<Set<string>> {
  const ignored = new Set<string>();
  for (const batch of batches(infos.map((i) => (i.type === 'directory' ? `${i.name}/` : i.name)))) {
    const result = await workspace.exec(['sh', '-c', CHECK_IGNORE_SCRIPT, 'sh', directory, ...batch], {
      env: gitEnvironment(workspace),
    });
    if (NOTHING_IGNORED_EXIT_CODES.has(result.exitCode)) continue;
    if (result.exitCode !== 0) throw new Error(`git check-ignore failed: ${result.stderr.trim()}`);
    for (const name of result.stdout.split('\0')) if (name) ignored.add(name.replace(/\/$/, ''));
  }
  return ignored;
}

function batches(names: string[]): string[][] {
  const all: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const name of names) {
    if (current.length > 0 && size + name.length > NAMES_PER_CHECK) {
      all.push(current);
      current = [];
      size = 0;
    }
    current.push(name);
    size += name.length + 1;
  }
  if (current.length > 0) all.push(current);
  return all;
}
