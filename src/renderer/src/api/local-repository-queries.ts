import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  LocalRepositoryExportResult,
  LocalRepositoryInfo,
  type LocalRepositoryExportRequest,
} from '../../../shared/api/local-repository';
import { isApiError } from './api-error';
import { useApi } from './ApiProvider';

/** While the copy is being made the baseline is not known yet. */
const COPY_POLL_MS = 2_000;

function localRepositoryPath(id: string, rest = ''): string {
  return `/api/conversations/${encodeURIComponent(id)}/local-repository${rest}`;
}

/**
 * The repository of this machine a conversation works on a copy of (`enabled` for such conversations); null
 * until its copy is made. Kept with the workspace's queries, so it is read again as the agent works.
 */
export function useLocalRepository(id: string, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: ['workspace', id, 'local-repository'],
    enabled,
    queryFn: async () => {
      try {
        return await api.get(localRepositoryPath(id), LocalRepositoryInfo);
      } catch (error) {
        if (isApiError(error, 404)) return null;
        throw error;
      }
    },
    refetchInterval: (query) => (query.state.data ? false : COPY_POLL_MS),
  });
}

/** Brings the agent's work back, as a branch or into the working tree; the changes are read again after. */
export function useExportLocalRepository(id: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: LocalRepositoryExportRequest) =>
      api.send('POST', localRepositoryPath(id, '/export'), LocalRepositoryExportResult, request),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['workspace', id] }),
  });
}
