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
const branches = {
  listed: ['main', 'fix-add', 'release'],
  nameOf: (name: string) => name,
  noun: { one: 'branch', many: 'branches' },
  emptyList: 'No branches yet.',
};
const nothingTyped = { typed: '', search: '' };

describe('searchResults', () => {
  it('offers the loaded list and the next page while nothing is typed', () => {
    const results = searchResults(nothingTyped, pages, noAnswer, branches);
    expect(results.items).toEqual(['main', 'fix-add', 'release']);
    expect(results.status).toBeNull();
    expect(results.loadMore).toMatchObject({ loadMoreLabel: 'Load more branches' });
  });

  it('lets the loaded matches stand in until the provider answers the search, then shows its answer', () => {
    const waiting = searchResults({ typed: 'ADD', search: '' }, pages, noAnswer, branches);
    expect(waiting.items).toEqual(['fix-add']);
    expect(waiting.status).toBe('Searching for “ADD”…');
    expect(waiting.loadMore).toEqual({});
    const answer = { ...noAnswer, data: ['add-tests'] };
    const answered = searchResults({ typed: 'ADD', search: 'ADD' }, pages, answer, branches);
    expect(answered.items).toEqual(['add-tests']);
    expect(answered.status).toBeNull();
  });

  it('names a failure, an empty search and an empty list in words', () => {
    const failed = { ...pages, error: new Error('offline') };
    expect(searchResults(nothingTyped, failed, noAnswer, branches).status).toBe(
      'Branches could not be loaded: offline',
    );
    const none = { ...noAnswer, data: [] };
    expect(searchResults({ typed: 'x', search: 'x' }, pages, none, branches).status).toBe(
      'No branch matches “x”.',
    );
    expect(searchResults(nothingTyped, pages, noAnswer, { ...branches, listed: [] }).status).toBe(
      'No branches yet.',
    );
  });
});
