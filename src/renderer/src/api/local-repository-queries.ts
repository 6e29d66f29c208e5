import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  LocalRepositoryExportResult,
  LocalRepositoryInfo,
  type LocalRepositoryExportRequest,
} from '../../../shared/api/local-repository';
import { isApiError } from './api-error';
import { useApi } from './ApiProvider';

function localRepositoryPath(id: string, rest = ''): string {
  return `/api/conversations/${encodeURIComponent(id)}/local-repository${rest}`;
}

/** The repository of this machine a conversation works on a copy of; null for other conversations. */
export function useLocalRepository(id: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['local-repository', id],
    queryFn: async () => {
      try {
        return await api.get(localRepositoryPath(id), LocalRepositoryInfo);
      } catch (error) {
        if (isApiError(error, 404)) return null;
        throw error;
      }
    },
    staleTime: Infinity,
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
