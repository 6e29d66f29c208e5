import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { SuccessBody } from '../../../shared/api/errors';
import { SandboxSpecPage } from '../../../shared/api/sandbox-specs';
import { SandboxInfo, SandboxPage } from '../../../shared/api/sandboxes';
import { useApi } from './ApiProvider';
import { useRefreshConversations } from './conversation-queries';

/** Sandboxes change state on their own (idle pause, pulls, probes): poll while a screen shows them. */
const SANDBOX_POLL_MS = 3_000;
/** A pull or build reports progress; follow it closely while one is under way. */
const PULL_POLL_MS = 1_000;
const SPEC_POLL_MS = 10_000;

const keys = {
  all: ['sandboxes'],
  list: ['sandboxes', 'list'],
  one: (id: string) => ['sandboxes', 'one', id],
  specs: ['sandbox-specs'],
} as const;

function sandboxPath(id: string, rest = ''): string {
  return `/api/v1/sandboxes/${encodeURIComponent(id)}${rest}`;
}

/** Every sandbox, newest first (one page of up to 100: the live-sandbox cap keeps the list short). */
export function useSandboxes() {
  const api = useApi();
  return useQuery({
    queryKey: keys.list,
    queryFn: async () => (await api.get('/api/v1/sandboxes/search?limit=100', SandboxPage)).items,
    refetchInterval: SANDBOX_POLL_MS,
  });
}

export function useSandbox(id: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: keys.one(id ?? ''),
    queryFn: () => api.get(sandboxPath(id ?? ''), SandboxInfo),
    enabled: id !== null,
    refetchInterval: SANDBOX_POLL_MS,
  });
}

export function useSandboxSpecs() {
  const api = useApi();
  return useQuery({
    queryKey: keys.specs,
    queryFn: async () => (await api.get('/api/v1/sandbox-specs/search', SandboxSpecPage)).items,
    refetchInterval: (query) =>
      query.state.data?.some((spec) => ['pulling', 'building'].includes(spec.image_progress?.state ?? ''))
        ? PULL_POLL_MS
        : SPEC_POLL_MS,
  });
}

export type SandboxAction = 'pause' | 'resume' | 'delete';

/** Pause, resume or delete a sandbox; sandboxes and conversations (whose loops it stops) refresh after. */
export function useSandboxAction(id: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const refreshConversations = useRefreshConversations();
  const refresh = useCallback(
    () => Promise.all([queryClient.invalidateQueries({ queryKey: keys.all }), refreshConversations()]),
    [queryClient, refreshConversations],
  );
  return useMutation({
    mutationFn: (action: SandboxAction) =>
      action === 'delete'
        ? api.send('DELETE', sandboxPath(id), SuccessBody)
        : api.send('POST', sandboxPath(id, `/${action}`), SuccessBody),
    onSuccess: refresh,
  });
}
