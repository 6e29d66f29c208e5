import type { NextFunction, Request, Response } from 'express';

/** Percent-escapes of RFC 3986 unreserved characters: they mean the character itself. */
const ESCAPED_UNRESERVED = /%(4[1-9A-F]|5[0-9A]|6[1-9A-F]|7[0-9A]|3[0-9]|2D|2E|5F|7E)/gi;

/** RFC 3986 §5.2.4 on segments: `.` goes, `..` removes the segment before it (never above the root). */
function removeDotSegments(segments: string[]): string[] {
  const kept: string[] = [];
  for (const segment of segments) {
    if (segment === '..') kept.pop();
    else if (segment !== '.') kept.push(segment);
  }
  return kept;
}

/**
 * The one spelling of a request path that the key check and the router both see: escaped unreserved
 * characters decoded (`%61` is `a`; `%2F` stays, it is not a separator), empty segments (duplicate and
 * trailing slashes) and dot segments removed. Letter case is kept: routing is case-sensitive.
 */
export function normalisePath(pathname: string): string {
  const decoded = pathname.replace(ESCAPED_UNRESERVED, (_escape, hex: string) =>
    String.fromCharCode(parseInt(hex, 16)),
  );
  const segments = decoded.split('/').filter((segment) => segment !== '');
  return `/${removeDotSegments(segments).join('/')}`;
}

/** Rewrites `req.url` to its normalised path (the query untouched) before anything reads it. */
export function normaliseUrl() {
  return (req: Request, _res: Response, next: NextFunction) => {
    const url = req.url;
    const queryAt = url.indexOf('?');
    const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
    const normal = normalisePath(pathname);
    if (normal !== pathname) req.url = normal + (queryAt === -1 ? '' : url.slice(queryAt));
    next();
  };
}
