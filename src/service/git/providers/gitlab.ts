import { z } from 'zod';
import type {
  Branch,
  BranchPage,
  GitUser,
  Repository,
  RepositorySort,
  SearchSort,
  SuggestedTaskItem,
} from '../../../shared/api/git';
import type { GitProviderClient, RepositoryPageRequest, RepositorySearch } from './git-provider-client';
import { collectPages, MAX_LISTED_FILES, MAX_REPOSITORIES, PAGE_SIZE } from './paging';
import { isoTimestamp, ProviderId } from './provider-values';
import { isWebUrl, searchByUrl } from './repository-urls';
import { hasNextLink, type ProviderHttp } from './provider-http';

const GitLabProject = z.looseObject({
  id: ProviderId,
  path_with_namespace: z.string(),
  visibility: z.string().nullish(),
  star_count: z.number().int().nullish(),
  last_activity_at: z.string().nullish(),
  namespace: z.looseObject({ kind: z.string().nullish() }).nullish(),
  default_branch: z.string().nullish(),
});
type GitLabProject = z.infer<typeof GitLabProject>;

const GitLabUser = z.looseObject({
  id: ProviderId,
  username: z.string(),
  avatar_url: z.string().nullish(),
  organization: z.string().nullish(),
  name: z.string().nullish(),
  email: z.string().nullish(),
  public_email: z.string().nullish(),
});

const GitLabBranch = z.looseObject({
  name: z.string(),
  commit: z.looseObject({ id: z.string(), committed_date: z.string().nullish() }),
  protected: z.boolean().nullish(),
});
type GitLabBranch = z.infer<typeof GitLabBranch>;

const TreeEntries = z.array(z.looseObject({ type: z.string(), path: z.string() }));

const References = z.looseObject({ full: z.string() });
const MergeRequest = z.looseObject({
  iid: z.number().int(),
  project_id: z.number().int(),
  title: z.string(),
  has_conflicts: z.boolean().nullish(),
  references: References,
});
const MergeRequestDetail = z.looseObject({
  head_pipeline: z.looseObject({ status: z.string() }).nullish(),
  blocking_discussions_resolved: z.boolean().nullish(),
});
const Issue = z.looseObject({ iid: z.number().int(), title: z.string(), references: References });

const ORDER_BY: Record<RepositorySort, { order_by: string; sort: 'asc' | 'desc' }> = {
  pushed: { order_by: 'last_activity_at', sort: 'desc' },
  updated: { order_by: 'last_activity_at', sort: 'desc' },
  created: { order_by: 'created_at', sort: 'desc' },
  full_name: { order_by: 'path', sort: 'asc' },
};
const SEARCH_ORDER_BY: Record<SearchSort, string> = {
  stars: 'star_count',
  updated: 'last_activity_at',
  forks: 'similarity',
  'help-wanted-issues': 'similarity',
};
/** Open merge requests and assigned issues looked at for suggested tasks. */
const SUGGESTED_TASK_LIMIT = 30;

function toRepository(project: GitLabProject, linkHeader: string | null = null): Repository {
  return {
    id: project.id,
    full_name: project.path_with_namespace,
    git_provider: 'gitlab',
    is_public: project.visibility === 'public',
    stargazers_count: project.star_count ?? null,
    link_header: linkHeader,
    pushed_at: isoTimestamp(project.last_activity_at),
    owner_type: project.namespace?.kind === 'group' ? 'organization' : 'user',
    main_branch: project.default_branch ?? null,
  };
}

function toBranch(branch: GitLabBranch): Branch {
  return {
    name: branch.name,
    commit_sha: branch.commit.id,
    protected: branch.protected ?? false,
    last_push_date: isoTimestamp(branch.commit.committed_date),
  };
}

/** `group/project` from a reference like `group/project!12` or `group/project#3`. */
function projectOfReference(reference: string): string {
  return reference.replace(/[!#]\d+$/, '');
}

function projectPath(fullName: string): string {
  return `/projects/${encodeURIComponent(fullName)}`;
}

/** GitLab REST v4 (gitlab.com and self-managed). */
export class GitLabClient implements GitProviderClient {
  readonly provider = 'gitlab';

  constructor(private readonly http: ProviderHttp) {}

  async user(): Promise<GitUser> {
    const { body } = await this.http.json('/user', GitLabUser);
    return {
      id: body.id,
      login: body.username,
      avatar_url: body.avatar_url ?? '',
      company: body.organization || null,
      name: body.name ?? null,
      email: body.email || body.public_email || null,
    };
  }

  async repositoryPage({ page, perPage, sort }: RepositoryPageRequest): Promise<Repository[]> {
    const { body, headers } = await this.http.json('/projects', z.array(GitLabProject), {
      membership: true,
      page,
      per_page: perPage,
      ...ORDER_BY[sort],
    });
    return body.map((project) => toRepository(project, headers.get('link')));
  }

  async allRepositories(sort: RepositorySort): Promise<Repository[]> {
    const projects = await collectPages(async (page) => {
      const { body, headers } = await this.http.json('/projects', z.array(GitLabProject), {
        membership: true,
        page,
        per_page: PAGE_SIZE,
        ...ORDER_BY[sort],
      });
      return { items: body, hasNext: hasNextLink(headers.get('link')) };
    }, MAX_REPOSITORIES);
    return projects.map((project) => toRepository(project));
  }

  async searchRepositories({ query, perPage, sort, order }: RepositorySearch): Promise<Repository[]> {
    if (isWebUrl(query)) return searchByUrl(this, query, [this.http.host]);
    const { body } = await this.http.json('/projects', z.array(GitLabProject), {
      membership: true,
      search: query,
      search_namespaces: true,
      per_page: perPage,
      order_by: SEARCH_ORDER_BY[sort],
      sort: order,
    });
    return body.map((project) => toRepository(project));
  }

  async repository(fullName: string): Promise<Repository | null> {
    const page = await this.http.optionalJson(projectPath(fullName), GitLabProject);
    return page && toRepository(page.body);
  }

  async branchPage(repository: Repository, page: number, perPage: number): Promise<BranchPage> {
    const { body, headers } = await this.http.json(
      `${projectPath(repository.full_name)}/repository/branches`,
      z.array(GitLabBranch),
      { page, per_page: perPage },
    );
    const total = Number.parseInt(headers.get('x-total') ?? '', 10);
    return {
      branches: body.map(toBranch),
      has_next_page: hasNextLink(headers.get('link')),
      current_page: page,
      per_page: perPage,
      total_count: Number.isNaN(total) ? null : total,
    };
  }

  async searchBranches(repository: Repository, query: string, perPage: number): Promise<Branch[]> {
    const { body } = await this.http.json(
      `${projectPath(repository.full_name)}/repository/branches`,
      z.array(GitLabBranch),
      { search: query, per_page: perPage },
    );
    return body.map(toBranch);
  }

  async suggestedTasks(): Promise<SuggestedTaskItem[]> {
    const [mergeRequests, issues] = await Promise.all([
      this.http.json('/merge_requests', z.array(MergeRequest), {
        scope: 'created_by_me',
        state: 'opened',
        per_page: SUGGESTED_TASK_LIMIT,
      }),
      this.http.json('/issues', z.array(Issue), {
        scope: 'assigned_to_me',
        state: 'opened',
        per_page: SUGGESTED_TASK_LIMIT,
      }),
    ]);
    const requestTasks = await Promise.all(
      mergeRequests.body.map(async (request): Promise<SuggestedTaskItem | null> => {
        const taskType = request.has_conflicts ? 'MERGE_CONFLICTS' : await this.mergeRequestTaskType(request);
        return (
          taskType && {
            git_provider: 'gitlab',
            task_type: taskType,
            repo: projectOfReference(request.references.full),
            issue_number: request.iid,
            title: request.title,
          }
        );
      }),
    );
    const issueTasks = issues.body.map((issue): SuggestedTaskItem => ({
      git_provider: 'gitlab',
      task_type: 'OPEN_ISSUE',
      repo: projectOfReference(issue.references.full),
      issue_number: issue.iid,
      title: issue.title,
    }));
    return [...requestTasks.filter((task) => task !== null), ...issueTasks];
  }

  /** A failed head pipeline, else unresolved blocking discussions (only the single-request API has both). */
  private async mergeRequestTaskType(request: {
    project_id: number;
    iid: number;
  }): Promise<SuggestedTaskItem['task_type'] | null> {
    const { body } = await this.http.json(
      `/projects/${request.project_id}/merge_requests/${request.iid}`,
      MergeRequestDetail,
    );
    if (body.head_pipeline?.status === 'failed') return 'FAILING_CHECKS';
    return body.blocking_discussions_resolved === false ? 'UNRESOLVED_COMMENTS' : null;
  }

  async listFiles(repository: Repository, directory: string): Promise<string[]> {
    const entries = await collectPages(async (page) => {
      const result = await this.http.optionalJson(
        `${projectPath(repository.full_name)}/repository/tree`,
        TreeEntries,
        {
          path: directory,
          recursive: true,
          ref: repository.main_branch ?? undefined,
          per_page: PAGE_SIZE,
          page,
        },
      );
      return { items: result?.body ?? [], hasNext: hasNextLink(result?.headers.get('link') ?? null) };
    }, MAX_LISTED_FILES);
    return entries.filter((entry) => entry.type === 'blob').map((entry) => entry.path);
  }

  fileText(repository: Repository, path: string): Promise<string | null> {
    return this.http.optionalText(
      `${projectPath(repository.full_name)}/repository/files/${encodeURIComponent(path)}/raw`,
      { ref: repository.main_branch ?? undefined },
    );
  }
}
