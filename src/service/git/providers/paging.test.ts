import { describe, expect, it } from 'vitest';
import { collectPages } from './paging';

describe('collectPages', () => {
  const pages = [[1, 2], [3, 4], [5]];
  const fetchPage = async (page: number) => ({ items: pages[page - 1] ?? [], hasNext: page < pages.length });

  it('reads pages until the last one', async () => {
    expect(await collectPages(fetchPage, 100)).toEqual([1, 2, 3, 4, 5]);
  });

  it('stops once it has `max` items', async () => {
    const read: number[] = [];
    const items = await collectPages(async (page) => {
      read.push(page);
      return fetchPage(page);
    }, 3);
    expect(items).toEqual([1, 2, 3]);
    expect(read).toEqual([1, 2]);
  });

  it('stops on an empty page even when the provider claims more', async () => {
    expect(await collectPages(async () => ({ items: [], hasNext: true }), 10)).toEqual([]);
  });
});
