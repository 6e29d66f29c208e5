import { z } from 'zod';
import { valueError } from './fields';
import { isRepositoryName } from './repository-name';

/** The longest local repository path accepted (Linux PATH_MAX). */
const MAX_PATH = 4096;

/** Whether a `repository` value names a repository on this machine (an absolute path or a file:// URL). */
export function isLocalRepository(value: string): boolean {
  return value.startsWith('/') || value.startsWith('file://');
}

/** Whether a `repository` value is plainly a relative path (`.`, `./x`, `../x`, `~/x`). */
function looksRelative(value: string): boolean {
  return /^(\.{1,2}|~)(\/|$)/.test(value);
}

/**
 * `repository` of a start request: a provider's `owner/repo`, or a git working tree on this machine given as
 * an absolute path or a `file://` URL (then `git_provider` is null). Whether the path is a git repository is
 * checked when the conversation is created.
 */
export const RepositoryOrLocalPath = z
  .string()
  .min(1)
  .max(MAX_PATH)
  .superRefine((value, ctx) => {
    if (value.includes('\0')) return valueError(ctx, 'repository must not contain NUL characters', value);
    if (isLocalRepository(value)) return;
    if (looksRelative(value)) {
      return valueError(
        ctx,
        `repository must be an absolute path or a file:// URL (${value} is relative), or owner/repo`,
        value,
      );
    }
    if (!isRepositoryName(value) || value.length > 200) {
      valueError(
        ctx,
        'repository must look like owner/repo (GitLab: group/sub/repo) or be an absolute path',
        value,
      );
    }
  });

/** A branch name Dockhand creates: plain characters only; `git check-ref-format --branch` checks the rest. */
export const EXPORT_BRANCH_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$/;

/** POST /api/conversations/{id}/local-repository/export. */
export const LocalRepositoryExportRequest = z.discriminatedUnion('mode', [
  z.strictObject({
    mode: z.literal('branch'),
    /** The new branch in the user's repository, e.g. `dockhand/fix-login`. */
    branch: z
      .string()
      .regex(EXPORT_BRANCH_PATTERN, 'branch may hold letters, digits and . _ / - (200 at most)'),
    /** The message of the commit that holds the agent's uncommitted work. */
    message: z.string().trim().min(1).max(10_000).optional(),
  }),
  z.strictObject({ mode: z.literal('apply') }),
]);
export type LocalRepositoryExportRequest = z.infer<typeof LocalRepositoryExportRequest>;

export const AppliedFile = z.object({
  path: z.string(),
  /** A: added, M: modified, D: deleted. */
  status: z.enum(['A', 'M', 'D']),
});

export const LocalRepositoryExportResult = z.discriminatedUnion('mode', [
  z.object({
    mode: z.literal('branch'),
    repository: z.string(),
    branch: z.string(),
    /** The branch's commit. */
    commit: z.string(),
    /** The commits on the branch that the user's repository did not have. */
    commits: z.number().int(),
  }),
  z.object({
    mode: z.literal('apply'),
    repository: z.string(),
    files: z.array(AppliedFile),
  }),
]);
export type LocalRepositoryExportResult = z.infer<typeof LocalRepositoryExportResult>;

/** 409 of an export: what is in the way; `conflicts` names the files that changed on both sides. */
export const LocalRepositoryExportConflict = z.object({
  detail: z.string(),
  conflicts: z.array(z.string()),
});

/** What the Changes view compares with, for a conversation on a local repository. */
export const LocalRepositoryInfo = z.object({
  repository: z.string(),
  branch: z.string().nullable(),
  /** The commit the copy started from in the user's repository (null: no commit yet). */
  start_commit: z.string().nullable(),
  /** The starting snapshot: the review baseline. */
  baseline_commit: z.string(),
});
export type LocalRepositoryInfo = z.infer<typeof LocalRepositoryInfo>;
