import { z } from 'zod';

/** A numeric id as providers send it (GitHub and GitLab: numbers), always kept as a string. */
export const ProviderId = z.union([z.number(), z.string()]).transform(String);

/** A provider timestamp as ISO-8601 UTC with milliseconds, or null. */
export function isoTimestamp(value: string | null | undefined): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** A slash-separated path with each segment percent-encoded. */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}
