import { z } from 'zod';
import { TASK_TYPES } from './conversations';
import { boundedInt, laxInt, valueError } from './fields';
import { GitProvider } from './settings';
import { hasDotSegment, RepositoryName } from './repository-name';

/** A repository on a git provider, as OpenHands' `Repository`. */
export const Repository = z.object({
  id: z.string(),
  full_name: z.string(),
  git_provider: GitProvider,
  is_public: z.boolean(),
  stargazers_count: z.number().int().nullable(),
  /** The provider's `Link` header of the page this repository came from (paged listings only). */
  link_header: z.string().nullable(),
  pushed_at: z.string().nullable(),
  owner_type: z.enum(['user', 'organization']).nullable(),
  main_branch: z.string().nullable(),
});
export type Repository = z.infer<typeof Repository>;

export const Branch = z.object({
  name: z.string(),
  commit_sha: z.string(),
  protected: z.boolean(),
  last_push_date: z.string().nullable(),
});
export type Branch = z.infer<typeof Branch>;

export const BranchPage = z.object({
  branches: z.array(Branch),
  has_next_page: z.boolean(),
  current_page: z.number().int(),
  per_page: z.number().int(),
  /** Null where the provider does not count (GitHub). */
  total_count: z.number().int().nullable(),
});
export type BranchPage = z.infer<typeof BranchPage>;

export const GitUser = z.object({
  id: z.string(),
  login: z.string(),
  avatar_url: z.string(),
  company: z.string().nullable(),
  name: z.string().nullable(),
  email: z.string().nullable(),
});
export type GitUser = z.infer<typeof GitUser>;

export const SuggestedTaskItem = z.object({
  git_provider: GitProvider,
  task_type: z.enum(TASK_TYPES),
  repo: z.string(),
  issue_number: z.number().int(),
  title: z.string(),
});
export type SuggestedTaskItem = z.infer<typeof SuggestedTaskItem>;

export const MicroagentSummary = z.object({
  name: z.string(),
  path: z.string(),
  created_at: z.string(),
});
export type MicroagentSummary = z.infer<typeof MicroagentSummary>;

export const MicroagentContent = z.object({
  content: z.string(),
  path: z.string(),
  triggers: z.array(z.string()),
  git_provider: GitProvider,
});
export type MicroagentContent = z.infer<typeof MicroagentContent>;

export const REPOSITORY_SORTS = ['pushed', 'updated', 'created', 'full_name'] as const;
export type RepositorySort = (typeof REPOSITORY_SORTS)[number];
export const SEARCH_SORTS = ['stars', 'forks', 'help-wanted-issues', 'updated'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

const perPage = (defaultValue: number) => boundedInt(1, 100).default(defaultValue);
const pageNumber = laxInt(z.number().int().min(1));

/** A path inside a repository: relative, without `.` or `..` segments. */
const RepositoryFilePath = z
  .string()
  .min(1)
  .superRefine((path, ctx) => {
    if (path.startsWith('/') || hasDotSegment(path)) {
      valueError(ctx, 'file_path must be a relative path without . or .. segments', path);
    }
  });

// Through a string first, so that an absent provider is `missing` rather than an enum error.
export const InstallationsQuery = z.object({ provider: GitProvider });

export const RepositoriesQuery = z
  .object({
    sort: z.enum(REPOSITORY_SORTS).default('pushed'),
    selected_provider: GitProvider.optional(),
    page: pageNumber.optional(),
    per_page: boundedInt(1, 100).optional(),
    /** GitHub: an app installation id; Bitbucket: the workspace slug. */
    installation_id: z.string().min(1).optional(),
  })
  .superRefine((query, ctx) => {
    if (query.selected_provider === 'bitbucket' && !query.installation_id) {
      valueError(ctx, 'installation_id (the workspace) is required for bitbucket', null, ['installation_id']);
    }
  });
export type RepositoriesQuery = z.infer<typeof RepositoriesQuery>;

export const SearchRepositoriesQuery = z.object({
  query: z.string(),
  per_page: perPage(5),
  sort: z.enum(SEARCH_SORTS).default('stars'),
  order: z.enum(['asc', 'desc']).default('desc'),
  selected_provider: GitProvider.optional(),
});
export type SearchRepositoriesQuery = z.infer<typeof SearchRepositoriesQuery>;

export const SearchBranchesQuery = z.object({
  repository: RepositoryName,
  query: z.string(),
  per_page: perPage(30),
  selected_provider: GitProvider.optional(),
});

export const RepositoryBranchesQuery = z.object({
  repository: RepositoryName,
  page: pageNumber.default(1),
  per_page: perPage(30),
});

/** `/repository/{repository_name...}/microagents`: Express hands the wildcard over as its segments. */
export const MicroagentsPath = z.object({
  repository_name: z.array(z.string()).transform((segments) => segments.join('/')),
});

export const MicroagentContentQuery = z.object({ file_path: RepositoryFilePath });

export const RepositoryList = z.array(Repository);
export const BranchList = z.array(Branch);
export const SuggestedTaskList = z.array(SuggestedTaskItem);
export const MicroagentSummaryList = z.array(MicroagentSummary);
