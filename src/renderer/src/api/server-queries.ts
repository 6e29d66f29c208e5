import { useQuery } from '@tanstack/react-query';
import { ServerInfo } from '../../../shared/api/server';
import { useApi } from './ApiProvider';

const SERVER_INFO_POLL_MS = 15_000;

const keys = {
  serverInfo: ['server_info'],
} as const;

export function useServerInfo() {
  const api = useApi();
  return useQuery({
    queryKey: keys.serverInfo,
    queryFn: () => api.get('/server_info', ServerInfo),
    refetchInterval: SERVER_INFO_POLL_MS,
  });
}
