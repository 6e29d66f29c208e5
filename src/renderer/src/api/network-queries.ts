import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SuccessBody } from '../../../shared/api/errors';
import { NetworkLog, type NetworkAllowRequest } from '../../../shared/api/network';
import { useApi } from './ApiProvider';

function networkPath(id: string, rest: string): string {
  return `/api/conversations/${encodeURIComponent(id)}/${rest}`;
}

/** What the conversation's gated sandbox tried to reach, allowed and refused. */
export function useNetworkLog(id: string, enabled: boolean, refetchInterval: number) {
  const api = useApi();
  return useQuery({
    queryKey: ['network-log', id],
    enabled,
    refetchInterval,
    queryFn: async () => (await api.get(networkPath(id, 'network-log'), NetworkLog)).entries,
  });
}

/** Allows a refused destination for the conversation, or always (the settings' list). */
export function useAllowEgress(id: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: NetworkAllowRequest) =>
      api.send('POST', networkPath(id, 'network-allow'), SuccessBody, request),
    onSettled: async (_data, _error, request) => {
      await queryClient.invalidateQueries({ queryKey: ['network-log', id] });
      if (request.scope === 'always') await queryClient.invalidateQueries({ queryKey: ['settings'] });
    },
  });
}
