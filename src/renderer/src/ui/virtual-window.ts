/** Where each row starts: `offsets[i]` is the top of row i, `offsets[count]` the total height. */
export function rowOffsets(heights: readonly number[]): Float64Array {
  const offsets = new Float64Array(heights.length + 1);
  for (let index = 0; index < heights.length; index++) {
    offsets[index + 1] = (offsets[index] ?? 0) + (heights[index] ?? 0);
  }
  return offsets;
}

/** The first row whose bottom is below `y`. */
function rowAt(offsets: Float64Array, y: number): number {
  const count = offsets.length - 1;
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((offsets[middle + 1] ?? 0) <= y) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The rows to render for a viewport at `scrollTop` of `height` pixels, `overscan` pixels more on each
 * side: rows `start` up to (not including) `end`.
 */
export function visibleRows(
  offsets: Float64Array,
  scrollTop: number,
  height: number,
  overscan: number,
): { start: number; end: number } {
  const count = offsets.length - 1;
  if (count === 0) return { start: 0, end: 0 };
  const start = Math.min(rowAt(offsets, Math.max(0, scrollTop - overscan)), count - 1);
  const end = Math.min(count, rowAt(offsets, scrollTop + height + overscan) + 1);
  return { start, end: Math.max(end, start + 1) };
}
