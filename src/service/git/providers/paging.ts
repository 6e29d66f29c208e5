/** The user's repositories read at most when listing them all. */
export const MAX_REPOSITORIES = 1000;
/** The largest page every provider serves. */
export const PAGE_SIZE = 100;
/** Files listed at most below one directory. */
export const MAX_LISTED_FILES = 1000;
/** Pages read at most when a search has to filter a listing. */
export const MAX_SCANNED_PAGES = 10;

/** Reads pages 1, 2, ... until one says there is no next page or `max` items are collected. */
export async function collectPages<T>(
  fetchPage: (page: number) => Promise<{ items: T[]; hasNext: boolean }>,
  max: number,
): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; items.length < max; page++) {
    const result = await fetchPage(page);
    items.push(...result.items);
    if (!result.hasNext || result.items.length === 0) break;
  }
  return items.slice(0, max);
}
