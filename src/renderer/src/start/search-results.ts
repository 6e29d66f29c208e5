import { useDebouncedValue } from './useDebouncedValue';

const SEARCH_DELAY_MS = 250;

/** The text typed in a picker, trimmed, and the value last searched for, once typing pauses. */
export interface SearchText {
  typed: string;
  search: string;
}

export function useSearchText(query: string): SearchText {
  const typed = query.trim();
  return { typed, search: useDebouncedValue(typed, SEARCH_DELAY_MS) };
}

/** What a picker needs of the paged list it loads first. */
interface ListedPages {
  error: Error | null;
  isPending: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/** What a picker needs of the provider's answer to a search. */
interface SearchAnswer<T> {
  data: T[] | undefined;
  isPlaceholderData: boolean;
  error: Error | null;
}

interface ListedItems<T> {
  /** The items of the pages loaded so far. */
  listed: T[];
  nameOf: (item: T) => string;
  /** e.g. `branch` and `branches`. */
  noun: { one: string; many: string };
  /** The status when the list is empty and nothing is typed. */
  emptyList: string;
}

export interface SearchResults<T> {
  items: T[];
  /** Loading, searching, failure or nothing found, in words; null when the items say it all. */
  status: string | null;
  /** The Combobox props offering the next page, only while browsing a list that has one. */
  loadMore: { onLoadMore: () => void; loadMoreLabel: string } | Record<string, never>;
}

/**
 * The items a picker offers: the loaded list, or once typed, the provider's search results, with the
 * loaded items that match standing in until the provider answers the search.
 */
export function searchResults<T>(
  { typed, search }: SearchText,
  pages: ListedPages,
  found: SearchAnswer<T>,
  { listed, nameOf, noun, emptyList }: ListedItems<T>,
): SearchResults<T> {
  const answered = found.data !== undefined && !found.isPlaceholderData && search === typed;
  const items = !typed
    ? listed
    : answered
      ? (found.data ?? [])
      : listed.filter((item) => nameOf(item).toLowerCase().includes(typed.toLowerCase()));

  let status: string | null = null;
  const failed = typed ? found.error : pages.error;
  const many = noun.many.charAt(0).toUpperCase() + noun.many.slice(1);
  if (failed) status = `${many} could not be loaded: ${failed.message}`;
  else if (typed && !answered) status = `Searching for “${typed}”…`;
  else if (!typed && pages.isPending) status = `Loading ${noun.many}…`;
  else if (items.length === 0) status = typed ? `No ${noun.one} matches “${typed}”.` : emptyList;

  const loadMore: SearchResults<T>['loadMore'] =
    !typed && pages.hasNextPage
      ? {
          onLoadMore: () => void pages.fetchNextPage(),
          loadMoreLabel: pages.isFetchingNextPage ? 'Loading more…' : `Load more ${noun.many}`,
        }
      : {};
  return { items, status, loadMore };
}
