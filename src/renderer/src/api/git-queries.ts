import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { z } from 'zod';
import { BranchPage, Branch, Repository, SuggestedTaskItem } from '../../../shared/api/git';
import { MessageBody } from '../../../shared/api/errors';
import type { GitProvider } from '../../../shared/api/settings';
import { useApi } from './ApiProvider';
import { settingsKeys } from './settings-queries';

const REPOSITORY_PAGE = 30;
const SEARCH_RESULTS = 20;
const BRANCH_PAGE = 30;

export const gitKeys = {
  all: ['git'],
  repositories: (provider: GitProvider | null) => ['git', 'repositories', provider],
  search: (provider: GitProvider | null, query: string) => ['git', 'search', provider, query],
  branches: (repository: string) => ['git', 'branches', repository],
  branchSearch: (repository: string, query: string) => ['git', 'branch-search', repository, query],
  suggestedTasks: ['git', 'suggested-tasks'],
} as const;

/** Whether a provider's `Link` header names a next page. */
export function hasNextLink(linkHeader: string | null | undefined): boolean {
  return /rel="next"/.test(linkHeader ?? '');
}

/** Providers that list repositories page by page; Bitbucket pages per workspace, so it comes merged. */
function pagesByProvider(provider: GitProvider | null): provider is 'github' | 'gitlab' {
  return provider === 'github' || provider === 'gitlab';
}

/**
 * The user's repositories on `provider`, a page at a time (GitHub, GitLab), or every provider's at once
 * (null, Bitbucket).
 */
export function useRepositoryPages(provider: GitProvider | null) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: gitKeys.repositories(provider),
    initialPageParam: 1,
    queryFn: async ({ pageParam }) => {
      if (!pagesByProvider(provider)) {
        const all = await api.get('/api/user/repositories?sort=pushed', z.array(Repository));
        return provider ? all.filter((repo) => repo.git_provider === provider) : all;
      }
      const query = new URLSearchParams({
        selected_provider: provider,
        sort: 'pushed',
        page: String(pageParam),
        per_page: String(REPOSITORY_PAGE),
      });
      return api.get(`/api/user/repositories?${query.toString()}`, z.array(Repository));
    },
    getNextPageParam: (last, _all, page) =>
      pagesByProvider(provider) && hasNextLink(last[0]?.link_header) ? page + 1 : undefined,
  });
}

/** Server-side search of the user's repositories (a repository URL finds that repository). */
export function useRepositorySearch(provider: GitProvider | null, query: string) {
  const api = useApi();
  return useQuery({
    queryKey: gitKeys.search(provider, query),
    enabled: query !== '',
    placeholderData: keepPreviousData,
    queryFn: () => {
      const params = new URLSearchParams({ query, per_page: String(SEARCH_RESULTS) });
      if (provider) params.set('selected_provider', provider);
      return api.get(`/api/user/search/repositories?${params.toString()}`, z.array(Repository));
    },
  });
}

/** A repository's branches, a page at a time. */
export function useBranchPages(repository: string | null) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: gitKeys.branches(repository ?? ''),
    enabled: repository !== null,
    initialPageParam: 1,
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({
        repository: repository ?? '',
        page: String(pageParam),
        per_page: String(BRANCH_PAGE),
      });
      return api.get(`/api/user/repository/branches?${params.toString()}`, BranchPage);
    },
    getNextPageParam: (last) => (last.has_next_page ? last.current_page + 1 : undefined),
  });
}

/** Branches of `repository` whose name contains `query`. */
export function useBranchSearch(repository: string | null, provider: GitProvider | null, query: string) {
  const api = useApi();
  return useQuery({
    queryKey: gitKeys.branchSearch(repository ?? '', query),
    enabled: repository !== null && query !== '',
    placeholderData: keepPreviousData,
    queryFn: () => {
      const params = new URLSearchParams({ repository: repository ?? '', query });
      if (provider) params.set('selected_provider', provider);
      return api.get(`/api/user/search/branches?${params.toString()}`, z.array(Branch));
    },
  });
}

export function useSuggestedTasks(enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: gitKeys.suggestedTasks,
    enabled,
    queryFn: () => api.get('/api/user/suggested-tasks', z.array(SuggestedTaskItem)),
  });
}

export interface ProviderTokenEdit {
  provider: GitProvider;
  /** Empty keeps the stored token. */
  token: string;
  host: string | null;
}

/**
 * Stores or removes one provider's token. POST /api/add-git-providers replaces the whole map, so the
 * other providers are sent along with an empty token (kept) and their host.
 */
export function useSaveProviderToken() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      stored,
      edit,
      remove = false,
    }: {
      stored: Record<string, string | null>;
      edit: ProviderTokenEdit;
      remove?: boolean;
    }) => {
      const kept = Object.entries(stored).filter(([provider]) => provider !== edit.provider);
      const tokens = Object.fromEntries([
        ...kept.map(([provider, host]) => [provider, { token: '', host }] as const),
        ...(remove ? [] : [[edit.provider, { token: edit.token, host: edit.host }] as const]),
      ]);
      return Object.keys(tokens).length === 0
        ? api.send('POST', '/api/unset-provider-tokens', MessageBody)
        : api.send('POST', '/api/add-git-providers', MessageBody, { provider_tokens: tokens });
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: settingsKeys.settings }),
        queryClient.invalidateQueries({ queryKey: gitKeys.all }),
      ]),
  });
}
