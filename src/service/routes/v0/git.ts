import { DetailBody, ValidationErrorBody } from '../../../shared/api/errors';
import { NameList } from '../../../shared/api/common';
import {
  BranchList,
  BranchPage,
  GitUser,
  InstallationsQuery,
  MicroagentContent,
  MicroagentContentQuery,
  MicroagentSummaryList,
  MicroagentsPath,
  RepositoriesQuery,
  RepositoryList,
  RepositoryBranchesQuery,
  SearchBranchesQuery,
  SearchRepositoriesQuery,
  SuggestedTaskList,
} from '../../../shared/api/git';
import { httpError } from '../../http/errors';
import { defineRoute, type RouteResponse, type RouteSpec } from '../../http/routes';
import { listMicroagents, microagentContent } from '../../git/providers/microagents';
import { ProviderClients } from '../../git/providers/provider-clients';
import type { ProviderApiBase } from '../../git/provider-api';
import type { ProviderTokenService } from '../../git/provider-tokens';

/** Page size of a selected provider's repository page when the client sends none. */
const DEFAULT_REPOSITORY_PAGE_SIZE = 30;

/** The failures every route that asks a provider can answer. */
const PROVIDER_ERRORS: Record<number, RouteResponse> = {
  400: { description: 'The provider (enterprise_sso) does not support this', schema: DetailBody },
  401: { description: 'No usable git-provider token', schema: DetailBody },
  422: { description: 'Invalid query', schema: ValidationErrorBody },
  429: { description: "The provider's rate limit is exhausted (see Retry-After)", schema: DetailBody },
  502: { description: 'The provider failed or could not be reached', schema: DetailBody },
};
const REPOSITORY_NOT_FOUND = {
  description: 'No connected provider shows the repository',
  schema: DetailBody,
};

/** `/api/user`: the user's repositories, branches, tasks and microagents on their git providers. */
export function gitRoutes(
  providerTokens: ProviderTokenService,
  providerApiBase: ProviderApiBase,
): RouteSpec[] {
  const clients = new ProviderClients(providerTokens, providerApiBase);
  return [
    defineRoute({
      method: 'get',
      path: '/api/user/installations',
      tag: 'git',
      summary: 'GitHub app installation ids or Bitbucket workspace slugs',
      query: InstallationsQuery,
      responses: { 200: { description: 'Installations', schema: NameList }, ...PROVIDER_ERRORS },
      handler: async ({ query }) => {
        const client = await clients.client(query.provider);
        if (!client.installations) {
          throw httpError(400, `Provider ${query.provider} does not support installations`);
        }
        return client.installations();
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/user/repositories',
      tag: 'git',
      summary: "One page of the selected provider's repositories, else every provider's (merged)",
      query: RepositoriesQuery,
      responses: { 200: { description: 'Repositories', schema: RepositoryList }, ...PROVIDER_ERRORS },
      handler: async ({ query }) => {
        if (query.selected_provider) {
          const client = await clients.client(query.selected_provider);
          return client.repositoryPage({
            page: query.page ?? 1,
            perPage: query.per_page ?? DEFAULT_REPOSITORY_PAGE_SIZE,
            sort: query.sort,
            installationId: query.installation_id,
          });
        }
        const connected = await clients.connected();
        const found = await Promise.all(connected.map((client) => client.allRepositories(query.sort)));
        return found.flat();
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/user/info',
      tag: 'git',
      summary: 'The user on the first connected provider (github, gitlab, bitbucket)',
      responses: { 200: { description: 'The user', schema: GitUser }, ...PROVIDER_ERRORS },
      handler: async () => (await clients.primary()).user(),
    }),
    defineRoute({
      method: 'get',
      path: '/api/user/search/repositories',
      tag: 'git',
      summary: "Search the user's repositories (a repository URL finds that repository)",
      query: SearchRepositoriesQuery,
      responses: { 200: { description: 'Repositories', schema: RepositoryList }, ...PROVIDER_ERRORS },
      handler: async ({ query }) => {
        const search = { query: query.query, perPage: query.per_page, sort: query.sort, order: query.order };
        const candidates = await clients.candidates(query.selected_provider);
        const found = await Promise.all(candidates.map((client) => client.searchRepositories(search)));
        return found.flat();
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/user/search/branches',
      tag: 'git',
      summary: "A repository's branches whose name contains the query",
      query: SearchBranchesQuery,
      responses: {
        200: { description: 'Branches', schema: BranchList },
        404: REPOSITORY_NOT_FOUND,
        ...PROVIDER_ERRORS,
      },
      handler: async ({ query }) => {
        const { client, repository } = await clients.forRepository(query.repository, query.selected_provider);
        return client.searchBranches(repository, query.query, query.per_page);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/user/suggested-tasks',
      tag: 'git',
      summary: 'Open pull requests that need work and assigned issues, from every connected provider',
      responses: {
        200: { description: 'Suggested tasks', schema: SuggestedTaskList },
        ...PROVIDER_ERRORS,
      },
      handler: async () => {
        const connected = await clients.connected();
        const found = await Promise.all(connected.map((client) => client.suggestedTasks?.() ?? []));
        return found.flat();
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/user/repository/branches',
      tag: 'git',
      summary: "One page of a repository's branches",
      query: RepositoryBranchesQuery,
      responses: {
        200: { description: 'Branches', schema: BranchPage },
        404: REPOSITORY_NOT_FOUND,
        ...PROVIDER_ERRORS,
      },
      handler: async ({ query }) => {
        const { client, repository } = await clients.forRepository(query.repository);
        return client.branchPage(repository, query.page, query.per_page);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/user/repository/*repository_name/microagents',
      tag: 'git',
      summary: "A repository's microagents (.cursorrules and the microagents folder), without content",
      params: MicroagentsPath,
      responses: {
        200: { description: 'Microagents', schema: MicroagentSummaryList },
        404: REPOSITORY_NOT_FOUND,
        ...PROVIDER_ERRORS,
      },
      handler: async ({ params }) => {
        const { client, repository } = await clients.forRepository(params.repository_name);
        return listMicroagents(client, repository);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/user/repository/*repository_name/microagents/content',
      tag: 'git',
      summary: "One microagent file's content and triggers",
      params: MicroagentsPath,
      query: MicroagentContentQuery,
      responses: {
        200: { description: 'The microagent', schema: MicroagentContent },
        404: { description: 'Unknown repository or file', schema: DetailBody },
        ...PROVIDER_ERRORS,
      },
      handler: async ({ params, query }) => {
        const { client, repository } = await clients.forRepository(params.repository_name);
        return microagentContent(client, repository, query.file_path);
      },
    }),
  ];
}
