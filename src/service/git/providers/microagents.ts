import type { MicroagentContent, MicroagentSummary, Repository } from '../../../shared/api/git';
import { parseMicroagent } from '../../microagents/parse-microagent';
import { httpError } from '../../http/errors';
import type { GitProviderClient } from './git-provider-client';

const CURSOR_RULES = '.cursorrules';

/**
 * Where a repository keeps its microagents: `microagents/` in the organisation-level repositories
 * (`.openhands`, GitLab's `openhands-config`), else `.openhands/microagents/`.
 */
export function microagentsDirectory(fullName: string): string {
  const name = fullName.split('/').at(-1);
  return name === '.openhands' || name === 'openhands-config' ? 'microagents' : '.openhands/microagents';
}

/** Whether a file below the microagents directory is a microagent (Markdown, not a README.md). */
export function isMicroagentFile(path: string): boolean {
  const name = path.split('/').at(-1) ?? '';
  return name.endsWith('.md') && name !== 'README.md';
}

/** A microagent's default name: its path below the microagents directory without `.md`. */
export function microagentName(path: string, directory: string): string {
  if (path === CURSOR_RULES) return 'cursorrules';
  const relative = path.startsWith(`${directory}/`) ? path.slice(directory.length + 1) : path;
  return relative.replace(/\.md$/, '');
}

/**
 * The repository's microagents: its `.cursorrules`, then the Markdown files below the microagents
 * directory. Tree listings carry no dates, so `created_at` is the time of the listing.
 */
export async function listMicroagents(
  client: GitProviderClient,
  repository: Repository,
  listedAt: Date = new Date(),
): Promise<MicroagentSummary[]> {
  const directory = microagentsDirectory(repository.full_name);
  const [cursorRules, files] = await Promise.all([
    client.fileText(repository, CURSOR_RULES),
    client.listFiles(repository, directory),
  ]);
  const paths = [...(cursorRules === null ? [] : [CURSOR_RULES]), ...files.filter(isMicroagentFile).sort()];
  const createdAt = listedAt.toISOString();
  return paths.map((path) => ({ name: microagentName(path, directory), path, created_at: createdAt }));
}

/** One microagent file's content (frontmatter removed) and triggers. 404 when the file does not exist. */
export async function microagentContent(
  client: GitProviderClient,
  repository: Repository,
  path: string,
): Promise<MicroagentContent> {
  const text = await client.fileText(repository, path);
  if (text === null) throw httpError(404, `Microagent file ${path} not found in ${repository.full_name}`);
  if (!path.endsWith('.md'))
    return { content: text.trim(), path, triggers: [], git_provider: client.provider };
  try {
    const microagent = parseMicroagent({
      text,
      defaultName: microagentName(path, microagentsDirectory(repository.full_name)),
      source: `${repository.full_name}/${path}`,
    });
    return {
      content: microagent.content,
      path,
      triggers: microagent.triggers,
      git_provider: client.provider,
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw httpError(502, `Microagent file ${path} in ${repository.full_name} cannot be parsed: ${reason}`);
  }
}
