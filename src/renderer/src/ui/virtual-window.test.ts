import { describe, expect, it } from 'vitest';
import { rowOffsets, visibleRows } from './virtual-window';

describe('rowOffsets', () => {
  it('adds up heights into row tops and a total', () => {
    expect([...rowOffsets([10, 20, 30])]).toEqual([0, 10, 30, 60]);
  });
});

describe('visibleRows', () => {
  const offsets = rowOffsets(Array.from({ length: 10_000 }, () => 50));

  it('renders the rows in the viewport and the overscan around it', () => {
    expect(visibleRows(offsets, 5_000, 400, 100)).toEqual({ start: 98, end: 111 });
  });

  it('stops at both ends', () => {
    expect(visibleRows(offsets, 0, 400, 100)).toEqual({ start: 0, end: 11 });
    expect(visibleRows(offsets, 500_000 - 400, 400, 100)).toEqual({ start: 9990, end: 10_000 });
  });

  it('renders one row before the viewport is measured, and none of an empty list', () => {
    expect(visibleRows(offsets, 0, 0, 0)).toEqual({ start: 0, end: 1 });
    expect(visibleRows(rowOffsets([]), 0, 400, 100)).toEqual({ start: 0, end: 0 });
  });
});
