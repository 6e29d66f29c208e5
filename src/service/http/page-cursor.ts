import { ValidationFailed } from './validation';

/** An opaque `page_id`: base64url of a JSON array of strings that says where the next page starts. */
export function encodeCursor(parts: string[]): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

/** Reads a `page_id` of `arity` parts; anything this service did not write is a 422 `value_error`. */
export function decodeCursor(pageId: string, arity: number): string[] {
  if (/^[A-Za-z0-9_-]+$/.test(pageId)) {
    try {
      const value = JSON.parse(Buffer.from(pageId, 'base64url').toString('utf8')) as unknown;
      if (Array.isArray(value) && value.length === arity && value.every((part) => typeof part === 'string')) {
        return value as string[];
      }
    } catch {
      // Not JSON: reported below.
    }
  }
  throw new ValidationFailed([
    { type: 'value_error', loc: ['query', 'page_id'], msg: 'Value error, Invalid page_id', input: pageId },
  ]);
}
