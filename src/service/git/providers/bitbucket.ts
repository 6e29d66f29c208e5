import { z } from 'zod';
import type { Branch, BranchPage, GitUser, Repository, RepositorySort } from '../../../shared/api/git';
import type { GitProviderClient, RepositoryPageRequest, RepositorySearch } from './git-provider-client';
import { collectPages, MAX_LISTED_FILES, MAX_REPOSITORIES, PAGE_SIZE } from './paging';
import { encodePath, isoTimestamp } from './provider-values';
import { isWebUrl, searchByUrl } from './repository-urls';
import type { ProviderHttp, QueryValues } from './provider-http';

const BitbucketRepository = z.looseObject({
  uuid: z.string(),
  full_name: z.string(),
  is_private: z.boolean().nullish(),
  updated_on: z.string().nullish(),
  owner: z.looseObject({ type: z.string().nullish() }).nullish(),
  mainbranch: z.looseObject({ name: z.string() }).nullish(),
});
type BitbucketRepository = z.infer<typeof BitbucketRepository>;

/** Bitbucket's paged collection: `values`, and `next` (a URL) while more pages follow. */
function paged<T extends z.ZodType>(item: T) {
  return z.looseObject({
    values: z.array(item),
    next: z.string().nullish(),
    size: z.number().int().nullish(),
  });
}

const BitbucketUser = z.looseObject({
  account_id: z.string().nullish(),
  uuid: z.string().nullish(),
  username: z.string().nullish(),
  nickname: z.string().nullish(),
  display_name: z.string().nullish(),
  links: z.looseObject({ avatar: z.looseObject({ href: z.string() }).nullish() }).nullish(),
});

const WorkspaceAccess = paged(z.looseObject({ workspace: z.looseObject({ slug: z.string() }) }));

const BitbucketBranch = z.looseObject({
  name: z.string(),
  target: z.looseObject({ hash: z.string(), date: z.string().nullish() }),
});
type BitbucketBranch = z.infer<typeof BitbucketBranch>;

const SourceEntries = paged(z.looseObject({ type: z.string(), path: z.string() }));

const SORTS: Record<RepositorySort, string> = {
  pushed: '-updated_on',
  updated: '-updated_on',
  created: '-created_on',
  full_name: 'name',
};
/** Directory levels listed below a microagents folder. */
const SOURCE_DEPTH = 10;

function toRepository(repo: BitbucketRepository, linkHeader: string | null = null): Repository {
  return {
    id: repo.uuid,
    full_name: repo.full_name,
    git_provider: 'bitbucket',
    is_public: repo.is_private === false,
    stargazers_count: null,
    link_header: linkHeader,
    pushed_at: isoTimestamp(repo.updated_on),
    owner_type: repo.owner?.type === 'user' ? 'user' : 'organization',
    main_branch: repo.mainbranch?.name ?? null,
  };
}

function toBranch(branch: BitbucketBranch): Branch {
  // Branch restrictions are not part of the refs API.
  return {
    name: branch.name,
    commit_sha: branch.target.hash,
    protected: false,
    last_push_date: isoTimestamp(branch.target.date),
  };
}

/** A Bitbucket query-language string literal. */
function quoted(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Bitbucket Cloud REST 2.0. */
export class BitbucketClient implements GitProviderClient {
  readonly provider = 'bitbucket';

  constructor(private readonly http: ProviderHttp) {}

  async user(): Promise<GitUser> {
    const { body } = await this.http.json('/user', BitbucketUser);
    return {
      id: body.account_id ?? body.uuid ?? '',
      login: body.username ?? body.nickname ?? '',
      avatar_url: body.links?.avatar?.href ?? '',
      company: null,
      name: body.display_name ?? null,
      email: null,
    };
  }

  /** The slugs of the user's workspaces. */
  async installations(): Promise<string[]> {
    const access = await collectPages(async (page) => {
      const { body } = await this.http.json('/user/workspaces', WorkspaceAccess, {
        pagelen: PAGE_SIZE,
        page,
      });
      return { items: body.values, hasNext: Boolean(body.next) };
    }, MAX_REPOSITORIES);
    return access.map((entry) => entry.workspace.slug);
  }

  async repositoryPage({
    page,
    perPage,
    sort,
    installationId,
  }: RepositoryPageRequest): Promise<Repository[]> {
    if (!installationId) throw new Error('A Bitbucket repository page needs the workspace');
    const { body } = await this.http.json(
      `/repositories/${encodeURIComponent(installationId)}`,
      paged(BitbucketRepository),
      { pagelen: perPage, page, sort: SORTS[sort] },
    );
    // Clients read the next page from a Link header, as GitHub and GitLab send it.
    const link = body.next ? `<${body.next}>; rel="next"` : null;
    return body.values.map((repo) => toRepository(repo, link));
  }

  async allRepositories(sort: RepositorySort): Promise<Repository[]> {
    const repositories: Repository[] = [];
    for (const workspace of await this.installations()) {
      const found = await this.workspaceRepositories(workspace, { sort: SORTS[sort] }, MAX_REPOSITORIES);
      repositories.push(...found);
      if (repositories.length >= MAX_REPOSITORIES) break;
    }
    return repositories.slice(0, MAX_REPOSITORIES);
  }

  private async workspaceRepositories(
    workspace: string,
    query: QueryValues,
    max: number,
  ): Promise<Repository[]> {
    const repositories = await collectPages(async (page) => {
      // 404: no such workspace (a search may name one).
      const result = await this.http.optionalJson(
        `/repositories/${encodeURIComponent(workspace)}`,
        paged(BitbucketRepository),
        { ...query, pagelen: Math.min(max, PAGE_SIZE), page },
      );
      return { items: result?.body.values ?? [], hasNext: Boolean(result?.body.next) };
    }, max);
    return repositories.map((repo) => toRepository(repo));
  }

  async searchRepositories({ query, perPage, order }: RepositorySearch): Promise<Repository[]> {
    if (isWebUrl(query)) return searchByUrl(this, query, [this.http.host], 2);
    const sort = order === 'asc' ? 'updated_on' : '-updated_on';
    const slash = query.indexOf('/');
    if (slash > 0) {
      const filter = { q: `name ~ ${quoted(query.slice(slash + 1))}`, sort };
      return this.workspaceRepositories(query.slice(0, slash), filter, perPage);
    }
    const filter = { q: `name ~ ${quoted(query)}`, sort };
    const workspaces = await this.installations();
    const found = await Promise.all(
      workspaces.map((workspace) => this.workspaceRepositories(workspace, filter, perPage)),
    );
    return found.flat().slice(0, perPage);
  }

  async repository(fullName: string): Promise<Repository | null> {
    const page = await this.http.optionalJson(`/repositories/${encodePath(fullName)}`, BitbucketRepository);
    return page && toRepository(page.body);
  }

  async branchPage(repository: Repository, page: number, perPage: number): Promise<BranchPage> {
    const { body } = await this.http.json(
      `/repositories/${encodePath(repository.full_name)}/refs/branches`,
      paged(BitbucketBranch),
      { pagelen: perPage, page, sort: '-target.date' },
    );
    return {
      branches: body.values.map(toBranch),
      has_next_page: Boolean(body.next),
      current_page: page,
      per_page: perPage,
      total_count: body.size ?? null,
    };
  }

  async searchBranches(repository: Repository, query: string, perPage: number): Promise<Branch[]> {
    const { body } = await this.http.json(
      `/repositories/${encodePath(repository.full_name)}/refs/branches`,
      paged(BitbucketBranch),
      { q: `name ~ ${quoted(query)}`, pagelen: perPage, sort: '-target.date' },
    );
    return body.values.map(toBranch);
  }

  async listFiles(repository: Repository, directory: string): Promise<string[]> {
    if (!repository.main_branch) return [];
    const files: string[] = [];
    let request: { path: string; query: QueryValues } | null = {
      path: `${this.sourcePath(repository, directory)}/`,
      query: { max_depth: SOURCE_DEPTH, pagelen: PAGE_SIZE },
    };
    while (request && files.length < MAX_LISTED_FILES) {
      const page = await this.http.optionalJson(request.path, SourceEntries, request.query);
      if (!page) break;
      files.push(
        ...page.body.values.filter((entry) => entry.type === 'commit_file').map((entry) => entry.path),
      );
      request = this.nextRequest(page.body.next);
    }
    return files.slice(0, MAX_LISTED_FILES);
  }

  async fileText(repository: Repository, path: string): Promise<string | null> {
    if (!repository.main_branch) return null;
    return this.http.optionalText(this.sourcePath(repository, path));
  }

  private sourcePath(repository: Repository, path: string): string {
    return `/repositories/${encodePath(repository.full_name)}/src/${encodePath(repository.main_branch ?? '')}/${encodePath(path)}`;
  }

  /** The request for a `next` URL (source listings page with opaque tokens); null past the last page. */
  private nextRequest(next: string | null | undefined): { path: string; query: QueryValues } | null {
    if (!next?.startsWith(`${this.http.base}/`)) return null;
    const url = new URL(next);
    const basePath = new URL(this.http.base).pathname.replace(/\/$/, '');
    return { path: url.pathname.slice(basePath.length), query: Object.fromEntries(url.searchParams) };
  }
}
