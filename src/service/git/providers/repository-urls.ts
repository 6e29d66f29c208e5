import type { Repository } from '../../../shared/api/git';
import type { GitProviderClient } from './git-provider-client';

/** Whether a search query is a web URL (searched as the repository it names). */
export function isWebUrl(query: string): boolean {
  return /^https?:\/\//.test(query);
}

/**
 * The repository path in a web URL on one of `hosts` (`https://github.com/owner/repo/tree/main` ->
 * `owner/repo`), or null when `query` is not such a URL. `segments` caps the path (GitLab: unlimited,
 * up to its `/-/` separator).
 */
export function repositoryPathFromUrl(query: string, hosts: string[], segments?: number): string | null {
  if (!isWebUrl(query)) return null;
  let url: URL;
  try {
    url = new URL(query);
  } catch {
    return null;
  }
  if (!hosts.includes(url.host)) return null;
  const parts = url.pathname.split('/').filter(Boolean);
  const separator = parts.indexOf('-');
  const path = (separator >= 0 ? parts.slice(0, separator) : parts).slice(0, segments);
  return path.length < 2 ? null : path.join('/').replace(/\.git$/, '');
}

/** The repository a web URL on `hosts` names, as search results (none for another host's URL). */
export async function searchByUrl(
  client: GitProviderClient,
  url: string,
  hosts: string[],
  segments?: number,
): Promise<Repository[]> {
  const path = repositoryPathFromUrl(url, hosts, segments);
  const repository = path ? await client.repository(path) : null;
  return repository ? [repository] : [];
}
