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

/**
 * Why no conversation can start now, in words, or null: Docker sandboxes are selected and Docker is not
 * available. (Unknown until /server_info answers: then starting is allowed and the service decides.)
 */
export function useStartBlocker(): string | null {
  const info = useServerInfo().data;
  if (!info || info.sandbox.provider !== 'docker' || info.docker.available) return null;
  return 'Docker is not available, and conversations run in Docker sandboxes. The Docker chip in the status bar says what is wrong and how to fix it.';
}
