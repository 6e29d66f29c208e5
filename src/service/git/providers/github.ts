import { z } from 'zod';
import type {
  Branch,
  BranchPage,
  GitUser,
  Repository,
  RepositorySort,
  SuggestedTaskItem,
} from '../../../shared/api/git';
import type { GitProviderClient, RepositoryPageRequest, RepositorySearch } from './git-provider-client';
import { collectPages, MAX_REPOSITORIES, MAX_SCANNED_PAGES, PAGE_SIZE } from './paging';
import { encodePath, isoTimestamp, ProviderId } from './provider-values';
import { isWebUrl, searchByUrl } from './repository-urls';
import { hasNextLink, type ProviderHttp } from './provider-http';

const GitHubRepository = z.looseObject({
  id: ProviderId,
  full_name: z.string(),
  private: z.boolean().nullish(),
  stargazers_count: z.number().int().nullish(),
  pushed_at: z.string().nullish(),
  owner: z.looseObject({ type: z.string().nullish() }).nullish(),
  default_branch: z.string().nullish(),
});
type GitHubRepository = z.infer<typeof GitHubRepository>;

const GitHubUser = z.looseObject({
  id: ProviderId,
  login: z.string(),
  avatar_url: z.string().nullish(),
  company: z.string().nullish(),
  name: z.string().nullish(),
  email: z.string().nullish(),
});

const GitHubBranch = z.looseObject({
  name: z.string(),
  commit: z.looseObject({ sha: z.string() }),
  protected: z.boolean().nullish(),
});
type GitHubBranch = z.infer<typeof GitHubBranch>;

const Installations = z.looseObject({ installations: z.array(z.looseObject({ id: ProviderId })) });
const InstallationRepositories = z.looseObject({ repositories: z.array(GitHubRepository) });
const RepositorySearchResult = z.looseObject({ items: z.array(GitHubRepository) });
const Organizations = z.array(z.looseObject({ login: z.string() }));

/** A directory listing (an array) or, when the path is a file, the file. */
const Contents = z.union([
  z.array(z.looseObject({ type: z.string(), path: z.string() })),
  z.looseObject({ type: z.string() }),
]);

const IssueSearchResult = z.looseObject({
  items: z.array(z.looseObject({ number: z.number().int(), title: z.string(), repository_url: z.string() })),
});
const PullRequest = z.looseObject({
  mergeable: z.boolean().nullish(),
  mergeable_state: z.string().nullish(),
  head: z.looseObject({ sha: z.string() }),
});
const CheckRuns = z.looseObject({
  check_runs: z.array(z.looseObject({ conclusion: z.string().nullish() })),
});
const CombinedStatus = z.looseObject({ state: z.string() });
const Reviews = z.array(z.looseObject({ state: z.string() }));

const FAILED_CONCLUSIONS = new Set(['failure', 'timed_out', 'startup_failure']);
const FAILED_STATES = new Set(['failure', 'error']);
const REVIEW_COMMENT_STATES = new Set(['CHANGES_REQUESTED', 'COMMENTED']);
/** Open pull requests and assigned issues looked at for suggested tasks. */
const SUGGESTED_TASK_LIMIT = 30;

function toRepository(repo: GitHubRepository, linkHeader: string | null = null): Repository {
  return {
    id: repo.id,
    full_name: repo.full_name,
    git_provider: 'github',
    is_public: repo.private === false,
    stargazers_count: repo.stargazers_count ?? null,
    link_header: linkHeader,
    pushed_at: isoTimestamp(repo.pushed_at),
    owner_type: repo.owner?.type === 'Organization' ? 'organization' : 'user',
    main_branch: repo.default_branch ?? null,
  };
}

function toBranch(branch: GitHubBranch): Branch {
  // The branch listing carries no commit dates.
  return {
    name: branch.name,
    commit_sha: branch.commit.sha,
    protected: branch.protected ?? false,
    last_push_date: null,
  };
}

/** `owner/repo` from an API URL ending in `/repos/owner/repo`. */
function repositoryOfApiUrl(url: string): string {
  return /\/repos\/([^/]+\/[^/]+)$/.exec(url)?.[1] ?? url;
}

/** GitHub REST v3 (github.com and GitHub Enterprise). */
export class GitHubClient implements GitProviderClient {
  readonly provider = 'github';

  constructor(private readonly http: ProviderHttp) {}

  async user(): Promise<GitUser> {
    const { body } = await this.http.json('/user', GitHubUser);
    return {
      id: body.id,
      login: body.login,
      avatar_url: body.avatar_url ?? '',
      company: body.company ?? null,
      name: body.name ?? null,
      email: body.email ?? null,
    };
  }

  async installations(): Promise<string[]> {
    const installations = await collectPages(async (page) => {
      const { body, headers } = await this.http.json('/user/installations', Installations, {
        per_page: PAGE_SIZE,
        page,
      });
      return { items: body.installations, hasNext: hasNextLink(headers.get('link')) };
    }, MAX_REPOSITORIES);
    return installations.map((installation) => installation.id);
  }

  async repositoryPage({
    page,
    perPage,
    sort,
    installationId,
  }: RepositoryPageRequest): Promise<Repository[]> {
    if (installationId) {
      const { body, headers } = await this.http.json(
        `/user/installations/${encodeURIComponent(installationId)}/repositories`,
        InstallationRepositories,
        { page, per_page: perPage },
      );
      return body.repositories.map((repo) => toRepository(repo, headers.get('link')));
    }
    const { body, headers } = await this.http.json('/user/repos', z.array(GitHubRepository), {
      page,
      per_page: perPage,
      sort,
    });
    return body.map((repo) => toRepository(repo, headers.get('link')));
  }

  async allRepositories(sort: RepositorySort): Promise<Repository[]> {
    const repositories = await collectPages(async (page) => {
      const { body, headers } = await this.http.json('/user/repos', z.array(GitHubRepository), {
        page,
        per_page: PAGE_SIZE,
        sort,
      });
      return { items: body, hasNext: hasNextLink(headers.get('link')) };
    }, MAX_REPOSITORIES);
    return repositories.map((repo) => toRepository(repo));
  }

  async searchRepositories({ query, perPage, sort, order }: RepositorySearch): Promise<Repository[]> {
    if (isWebUrl(query)) return searchByUrl(this, query, [this.http.host], 2);
    const result = await this.http.optionalJson(
      '/search/repositories',
      RepositorySearchResult,
      { q: await this.ownedSearch(query), per_page: perPage, sort, order },
      // 422: the search names an owner that does not exist.
      [422],
    );
    return result?.body.items.map((repo) => toRepository(repo)) ?? [];
  }

  /** A search among the user's and their organizations' repositories; `owner/name` searches one owner. */
  private async ownedSearch(query: string): Promise<string> {
    const slash = query.indexOf('/');
    if (slash > 0) return `${query.slice(slash + 1)} in:name user:${query.slice(0, slash)}`;
    const [user, organizations] = await Promise.all([
      this.user(),
      this.http.json('/user/orgs', Organizations, { per_page: PAGE_SIZE }),
    ]);
    const owners = [`user:${user.login}`, ...organizations.body.map((org) => `org:${org.login}`)];
    return `${query} in:name ${owners.join(' ')}`;
  }

  async repository(fullName: string): Promise<Repository | null> {
    const page = await this.http.optionalJson(`/repos/${encodePath(fullName)}`, GitHubRepository);
    return page && toRepository(page.body);
  }

  async branchPage(repository: Repository, page: number, perPage: number): Promise<BranchPage> {
    const { body, headers } = await this.http.json(
      `/repos/${encodePath(repository.full_name)}/branches`,
      z.array(GitHubBranch),
      { page, per_page: perPage },
    );
    return {
      branches: body.map(toBranch),
      has_next_page: hasNextLink(headers.get('link')),
      current_page: page,
      per_page: perPage,
      total_count: null,
    };
  }

  async searchBranches(repository: Repository, query: string, perPage: number): Promise<Branch[]> {
    // REST v3 has no branch search: scan the listing.
    const needle = query.toLowerCase();
    const matches = await collectPages(async (page) => {
      const { body, headers } = await this.http.json(
        `/repos/${encodePath(repository.full_name)}/branches`,
        z.array(GitHubBranch),
        { page, per_page: PAGE_SIZE },
      );
      return {
        items: body.filter((branch) => branch.name.toLowerCase().includes(needle)),
        hasNext: hasNextLink(headers.get('link')) && page < MAX_SCANNED_PAGES,
      };
    }, perPage);
    return matches.map(toBranch);
  }

  async suggestedTasks(): Promise<SuggestedTaskItem[]> {
    const { login } = await this.user();
    const search = (q: string) =>
      this.http.json('/search/issues', IssueSearchResult, { q, per_page: SUGGESTED_TASK_LIMIT });
    const [pulls, issues] = await Promise.all([
      search(`is:pr is:open archived:false author:${login}`),
      search(`is:issue is:open archived:false assignee:${login}`),
    ]);
    const pullTasks = await Promise.all(
      pulls.body.items.map(async (pull): Promise<SuggestedTaskItem | null> => {
        const repo = repositoryOfApiUrl(pull.repository_url);
        const taskType = await this.pullRequestTaskType(repo, pull.number);
        return (
          taskType && {
            git_provider: 'github',
            task_type: taskType,
            repo,
            issue_number: pull.number,
            title: pull.title,
          }
        );
      }),
    );
    const issueTasks = issues.body.items.map((issue): SuggestedTaskItem => ({
      git_provider: 'github',
      task_type: 'OPEN_ISSUE',
      repo: repositoryOfApiUrl(issue.repository_url),
      issue_number: issue.number,
      title: issue.title,
    }));
    return [...pullTasks.filter((task) => task !== null), ...issueTasks];
  }

  /** What needs doing on an open pull request: conflicts, then failing checks, then review comments. */
  private async pullRequestTaskType(
    repo: string,
    number: number,
  ): Promise<SuggestedTaskItem['task_type'] | null> {
    const base = `/repos/${encodePath(repo)}`;
    const { body: pull } = await this.http.json(`${base}/pulls/${number}`, PullRequest);
    if (pull.mergeable === false || pull.mergeable_state === 'dirty') return 'MERGE_CONFLICTS';
    const commit = `${base}/commits/${encodeURIComponent(pull.head.sha)}`;
    const [runs, status] = await Promise.all([
      this.http.json(`${commit}/check-runs`, CheckRuns, { per_page: PAGE_SIZE }),
      this.http.json(`${commit}/status`, CombinedStatus),
    ]);
    const failedRun = runs.body.check_runs.some((run) => FAILED_CONCLUSIONS.has(run.conclusion ?? ''));
    if (failedRun || FAILED_STATES.has(status.body.state)) return 'FAILING_CHECKS';
    const reviews = await this.http.json(`${base}/pulls/${number}/reviews`, Reviews, { per_page: PAGE_SIZE });
    return reviews.body.some((review) => REVIEW_COMMENT_STATES.has(review.state))
      ? 'UNRESOLVED_COMMENTS'
      : null;
  }

  async listFiles(repository: Repository, directory: string): Promise<string[]> {
    const page = await this.http.optionalJson(
      `/repos/${encodePath(repository.full_name)}/contents/${encodePath(directory)}`,
      Contents,
    );
    if (!page || !Array.isArray(page.body)) return [];
    const nested = await Promise.all(
      page.body.map((entry) =>
        entry.type === 'dir'
          ? this.listFiles(repository, entry.path)
          : entry.type === 'file'
            ? [entry.path]
            : [],
      ),
    );
    return nested.flat();
  }

  fileText(repository: Repository, path: string): Promise<string | null> {
    return this.http.optionalText(
      `/repos/${encodePath(repository.full_name)}/contents/${encodePath(path)}`,
      {},
      'application/vnd.github.raw+json',
    );
  }
}
