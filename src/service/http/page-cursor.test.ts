import { describe, expect, it } from 'vitest';
import { ValidationFailed } from '../http/validation';
import { decodeCursor, encodeCursor } from './page-cursor';

describe('page cursors', () => {
  it('round-trip and are opaque base64url', () => {
    const cursor = encodeCursor(['2025-11-28T16:16:34.123Z', 'sbx-1']);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, 2)).toEqual(['2025-11-28T16:16:34.123Z', 'sbx-1']);
  });

  it.each(['not a cursor', 'e30', encodeCursor(['one']), '!!!'])('reject %s with a value_error', (pageId) => {
    let caught: unknown;
    try {
      decodeCursor(pageId, 2);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ValidationFailed);
    expect((caught as ValidationFailed).detail).toEqual([
      { type: 'value_error', loc: ['query', 'page_id'], msg: 'Value error, Invalid page_id', input: pageId },
    ]);
  });
});
