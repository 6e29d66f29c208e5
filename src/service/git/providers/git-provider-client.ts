import type {
  Branch,
  BranchPage,
  GitUser,
  Repository,
  RepositorySort,
  SearchSort,
  SuggestedTaskItem,
} from '../../../shared/api/git';
import type { ApiProvider } from './provider-http';

export interface RepositoryPageRequest {
  page: number;
  perPage: number;
  sort: RepositorySort;
  /** GitHub: an app installation id; Bitbucket: the workspace slug (required there). */
  installationId?: string | undefined;
}

export interface RepositorySearch {
  query: string;
  perPage: number;
  sort: SearchSort;
  order: 'asc' | 'desc';
}

/** The user routes' view of one git provider's REST API, authenticated with the stored token. */
export interface GitProviderClient {
  readonly provider: ApiProvider;
  user(): Promise<GitUser>;
  /** GitHub app installation ids or Bitbucket workspace slugs; absent where there are none (GitLab). */
  installations?(): Promise<string[]>;
  /** One page of the user's repositories, each carrying the provider's `Link` header of that page. */
  repositoryPage(request: RepositoryPageRequest): Promise<Repository[]>;
  /** The user's repositories, up to MAX_REPOSITORIES. */
  allRepositories(sort: RepositorySort): Promise<Repository[]>;
  searchRepositories(search: RepositorySearch): Promise<Repository[]>;
  /** The repository, or null when the provider does not show it. */
  repository(fullName: string): Promise<Repository | null>;
  branchPage(repository: Repository, page: number, perPage: number): Promise<BranchPage>;
  /** Branches whose name contains `query`, at most `perPage`. */
  searchBranches(repository: Repository, query: string, perPage: number): Promise<Branch[]>;
  /** Absent where the provider has no source of suggested tasks (Bitbucket). */
  suggestedTasks?(): Promise<SuggestedTaskItem[]>;
  /** Paths of the files below `directory` on the main branch, recursively; empty when it does not exist. */
  listFiles(repository: Repository, directory: string): Promise<string[]>;
  /** A file's text on the main branch, or null when it does not exist. */
  fileText(repository: Repository, path: string): Promise<string | null>;
}
