import { describe, expect, it } from 'vitest';
import { searchResults } from './search-results';

const pages = {
  error: null,
  isPending: false,
  hasNextPage: true,
  isFetchingNextPage: false,
  fetchNextPage: () => 0,
};
const noAnswer = { data: undefined, isPlaceholderData: false, error: null };
const base = {
  listed: ['main', 'fix-add', 'release'],
  pages,
  found: noAnswer,
  nameOf: (name: string) => name,
  noun: { one: 'branch', many: 'branches' },
  emptyList: 'No branches yet.',
};

describe('searchResults', () => {
  it('offers the loaded list and the next page while nothing is typed', () => {
    const results = searchResults({ ...base, typed: '', search: '' });
    expect(results.items).toEqual(['main', 'fix-add', 'release']);
    expect(results.status).toBeNull();
    expect(results.loadMore).toMatchObject({ loadMoreLabel: 'Load more branches' });
  });

  it('lets the loaded matches stand in until the provider answers the search, then shows its answer', () => {
    const waiting = searchResults({ ...base, typed: 'ADD', search: '' });
    expect(waiting.items).toEqual(['fix-add']);
    expect(waiting.status).toBe('Searching for “ADD”…');
    expect(waiting.loadMore).toEqual({});
    const answered = searchResults({
      ...base,
      typed: 'ADD',
      search: 'ADD',
      found: { ...noAnswer, data: ['add-tests'] },
    });
    expect(answered.items).toEqual(['add-tests']);
    expect(answered.status).toBeNull();
  });

  it('names a failure, an empty search and an empty list in words', () => {
    const failed = { ...pages, error: new Error('offline') };
    expect(searchResults({ ...base, typed: '', search: '', pages: failed }).status).toBe(
      'Branches could not be loaded: offline',
    );
    const nothing = { ...noAnswer, data: [] };
    expect(searchResults({ ...base, typed: 'x', search: 'x', found: nothing }).status).toBe(
      'No branch matches “x”.',
    );
    expect(searchResults({ ...base, listed: [], typed: '', search: '' }).status).toBe('No branches yet.');
  });
});
