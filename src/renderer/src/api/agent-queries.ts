import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AgentInfo, AgentList, type AcpAgentKind } from '../../../shared/api/agents';
import { useApi } from './ApiProvider';

/** An install reports progress: follow it closely while one is under way. */
const INSTALL_POLL_MS = 1_000;

const keys = { agents: ['agents'] } as const;

/** GET /api/agents: every agent with its install; polled while one installs. */
export function useAgents() {
  const api = useApi();
  return useQuery({
    queryKey: keys.agents,
    queryFn: () => api.get('/api/agents', AgentList),
    refetchInterval: (query) =>
      query.state.data?.agents.some((agent) => agent.install.state === 'installing')
        ? INSTALL_POLL_MS
        : false,
  });
}

/** POST /api/agents/{kind}/install: starts the install; its progress shows in useAgents. */
export function useInstallAgent() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (kind: AcpAgentKind) =>
      api.send('POST', `/api/agents/${encodeURIComponent(kind)}/install`, AgentInfo, {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.agents }),
  });
}
