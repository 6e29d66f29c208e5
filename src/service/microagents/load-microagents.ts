import { homedir } from 'node:os';
import { join } from 'node:path';
import type { SandboxFiles } from '../sandbox/files/sandbox-files';
import { BUILTIN_MICROAGENT_FILES } from './builtin-microagents';
import { hostFolders, sandboxFolders, type FolderReader } from './folder-reader';
import type { Microagent } from './microagent';
import { parseMicroagent, plainRepoMicroagent } from './parse-microagent';
import { REPOSITORY_INSTRUCTIONS_MAX_CHARS, repositoryInstructions } from './repository-instructions';

export interface LoadMicroagentsOptions {
  files: SandboxFiles;
  /** The repository's folder in the sandbox (absolute), or null when the conversation has none. */
  repoDir: string | null;
  /** Folders on this machine, in load order; see userMicroagentDirs(). */
  userDirs: string[];
  /** How the user folders are read: node:fs unless given. */
  host?: FolderReader;
}

export interface LoadedMicroagents {
  microagents: Microagent[];
  /** One line per skipped file or folder, naming it, and one when the repository instructions are cut. */
  warnings: string[];
}

export const MAX_MICROAGENT_FILE_BYTES = 1_000_000;
const REPO_MICROAGENTS_DIR = '.openhands/microagents';

/** Files in the repository root read as plain repo microagents: [candidates (first found wins), name]. */
const ROOT_FILES: [string[], string][] = [
  [['AGENTS.md', 'agents.md', 'AGENT.md', 'agent.md'], 'agents'],
  [['.cursorrules'], 'cursorrules'],
  [['.openhands_instructions'], 'repo_legacy'],
];

/** Every file name of the repository root that may be read as a microagent. */
export const ROOT_FILE_NAMES = ROOT_FILES.flatMap(([candidates]) => candidates);

type Outcome = { microagent: Microagent } | { warning: string };

interface FoundFile {
  path: string;
  /** The path below the walked folder, `/`-separated, without `.md`. */
  name: string;
  size: number;
}

/** ~/.dockhand/microagents, then ~/.openhands/microagents. */
export function userMicroagentDirs(home = homedir()): string[] {
  return [join(home, '.dockhand', 'microagents'), join(home, '.openhands', 'microagents')];
}

function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}

/** Every `*.md` file below `dir` except README.md, depth first in name order; unreadable folders warn. */
async function markdownFiles(
  reader: FolderReader,
  dir: string,
  warnings: string[],
  prefix = '',
): Promise<FoundFile[]> {
  let entries;
  try {
    entries = await reader.list(dir);
  } catch (error) {
    warnings.push(`Skipped the microagent folder ${dir}: ${reason(error)}`);
    return [];
  }
  const found: FoundFile[] = [];
  for (const entry of (entries ?? []).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = reader.join(dir, entry.name);
    if (entry.kind === 'directory') {
      found.push(...(await markdownFiles(reader, path, warnings, `${prefix}${entry.name}/`)));
    } else if (
      entry.kind === 'file' &&
      entry.name.endsWith('.md') &&
      entry.name.toLowerCase() !== 'readme.md'
    ) {
      found.push({ path, name: prefix + entry.name.slice(0, -'.md'.length), size: entry.size });
    }
  }
  return found;
}

async function readText(reader: FolderReader, file: { path: string; size: number }): Promise<string> {
  if (file.size > MAX_MICROAGENT_FILE_BYTES) {
    throw new Error(`larger than ${MAX_MICROAGENT_FILE_BYTES} bytes`);
  }
  const bytes = await reader.read(file.path, MAX_MICROAGENT_FILE_BYTES);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Error('not UTF-8 text');
  }
}

async function outcome(source: string, load: () => Promise<Microagent> | Microagent): Promise<Outcome> {
  try {
    return { microagent: await load() };
  } catch (error) {
    return { warning: `Skipped microagent ${source}: ${reason(error)}` };
  }
}

async function loadFolder(reader: FolderReader, dir: string): Promise<Outcome[]> {
  const warnings: string[] = [];
  const found = await markdownFiles(reader, dir, warnings);
  const loaded = await Promise.all(
    found.map((file) =>
      outcome(file.path, async () =>
        parseMicroagent({ text: await readText(reader, file), defaultName: file.name, source: file.path }),
      ),
    ),
  );
  return [...warnings.map((warning) => ({ warning })), ...loaded];
}

async function loadRootFiles(reader: FolderReader, repoDir: string): Promise<Outcome[]> {
  let entries;
  try {
    entries = (await reader.list(repoDir)) ?? [];
  } catch (error) {
    return [{ warning: `Skipped the repository folder ${repoDir}: ${reason(error)}` }];
  }
  const files = new Map(entries.filter((entry) => entry.kind === 'file').map((entry) => [entry.name, entry]));
  const chosen = ROOT_FILES.flatMap(([candidates, name]) => {
    const entry = candidates.map((candidate) => files.get(candidate)).find((found) => found !== undefined);
    return entry ? [{ entry, name }] : [];
  });
  return Promise.all(
    chosen.map(({ entry, name }) => {
      const path = reader.join(repoDir, entry.name);
      return outcome(path, async () =>
        plainRepoMicroagent(name, await readText(reader, { path, size: entry.size }), path),
      );
    }),
  );
}

/**
 * Loads the microagents of a conversation, in this order: built-ins, the user's folders, the repository's
 * `.openhands/microagents/**.md`, then its AGENTS.md (or a variant), `.cursorrules` and
 * `.openhands_instructions`. A later microagent replaces an earlier one of the same name. Files that cannot be
 * read or parsed are skipped with a warning.
 */
export async function loadMicroagents(options: LoadMicroagentsOptions): Promise<LoadedMicroagents> {
  const host = options.host ?? hostFolders;
  const sandbox = sandboxFolders(options.files);
  const sources: Promise<Outcome[]>[] = [
    Promise.all(BUILTIN_MICROAGENT_FILES.map((file) => outcome(file.source, () => parseMicroagent(file)))),
    ...options.userDirs.map((dir) => loadFolder(host, dir)),
  ];
  if (options.repoDir !== null) {
    sources.push(loadFolder(sandbox, sandbox.join(options.repoDir, REPO_MICROAGENTS_DIR)));
    sources.push(loadRootFiles(sandbox, options.repoDir));
  }

  const warnings: string[] = [];
  const byName = new Map<string, Microagent>();
  for (const result of (await Promise.all(sources)).flat()) {
    if ('warning' in result) {
      warnings.push(result.warning);
    } else {
      // Deleting first puts the winner where its own source comes in the order.
      byName.delete(result.microagent.name);
      byName.set(result.microagent.name, result.microagent);
    }
  }
  const microagents = [...byName.values()];
  const { fullLength } = repositoryInstructions(microagents);
  if (fullLength > REPOSITORY_INSTRUCTIONS_MAX_CHARS) {
    warnings.push(
      `The repository instructions are ${fullLength} characters long; they are cut to ${REPOSITORY_INSTRUCTIONS_MAX_CHARS}.`,
    );
  }
  return { microagents, warnings };
}
