import { z } from 'zod';
import { valueError } from './fields';

/** Whether a slash-separated path has a `.` or `..` segment. */
export function hasDotSegment(path: string): boolean {
  return path.split('/').some((segment) => segment === '.' || segment === '..');
}

/** Whether `name` looks like `owner/repo` (GitLab: `group/sub/repo`). */
export function isRepositoryName(name: string): boolean {
  return /^[^/\s]+(\/[^/\s]+)+$/.test(name) && !hasDotSegment(name);
}

export const RepositoryName = z
  .string()
  .min(1)
  .superRefine((name, ctx) => {
    if (!isRepositoryName(name)) {
      valueError(ctx, 'repository must look like owner/repo (GitLab: group/sub/repo)', name);
    }
  });
