import { QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { MessageBody } from '../../../shared/api/errors';
import { LlmCheckResult, type LlmCheckRequest } from '../../../shared/api/llm-check';
import { CustomSecretList, type CreateSecretRequest } from '../../../shared/api/secrets';
import { ServerInfo } from '../../../shared/api/server';
import { Settings, type SettingsUpdate } from '../../../shared/api/settings';
import { isApiError } from './api-error';
import type { ApiClient } from './client';
import { useApi } from './ApiProvider';

/** Settings as loaded, keeping keys this version does not know so that saving sends them back. */
const StoredSettings = Settings.loose();
export type StoredSettings = z.infer<typeof StoredSettings>;

/** The fields a screen changes; every other field is sent back as it was loaded. */
export type SettingsEdits = z.input<typeof SettingsUpdate>;
export type NewSecret = z.input<typeof CreateSecretRequest>;

const SERVER_INFO_POLL_MS = 15_000;

const keys = {
  serverInfo: ['server_info'],
  settings: ['settings'],
  models: ['options', 'models'],
  secrets: ['secrets'],
} as const;

/** Retries only what may pass on a second try: an unreachable service or one briefly unavailable. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failures, error) => failures < 2 && (isApiError(error, 0) || isApiError(error, 503)),
      },
      mutations: { retry: false },
    },
  });
}

/** GET /api/settings; null when settings were never saved (404), so screens show the defaults. */
async function loadSettings(api: ApiClient): Promise<StoredSettings | null> {
  try {
    return await api.get('/api/settings', StoredSettings);
  } catch (error) {
    if (isApiError(error, 404)) return null;
    throw error;
  }
}

export function useServerInfo() {
  const api = useApi();
  return useQuery({
    queryKey: keys.serverInfo,
    queryFn: () => api.get('/server_info', ServerInfo),
    refetchInterval: SERVER_INFO_POLL_MS,
  });
}

export function useSettings() {
  const api = useApi();
  return useQuery({ queryKey: keys.settings, queryFn: () => loadSettings(api) });
}

export function useModels() {
  const api = useApi();
  return useQuery({
    queryKey: keys.models,
    queryFn: () => api.get('/api/options/models', z.array(z.string())),
  });
}

export function useSaveSettings() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    // POST replaces the whole object, so the edits go on top of what GET returned.
    mutationFn: ({ loaded, edits }: { loaded: StoredSettings | null; edits: SettingsEdits }) =>
      api.send('POST', '/api/settings', MessageBody, { ...loaded, ...edits }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: keys.settings }),
        queryClient.invalidateQueries({ queryKey: keys.models }),
      ]),
  });
}

export function useSecrets() {
  const api = useApi();
  return useQuery({
    queryKey: keys.secrets,
    queryFn: async () => (await api.get('/api/secrets', CustomSecretList)).custom_secrets,
  });
}

export function useCreateSecret() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (secret: NewSecret) => api.send('POST', '/api/secrets', MessageBody, secret),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.secrets }),
  });
}

export function useDeleteSecret() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.send('DELETE', `/api/secrets/${encodeURIComponent(name)}`, MessageBody),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.secrets }),
  });
}

/** One tiny model call with the values on screen (the stored key when none is typed). */
export function useLlmCheck() {
  const api = useApi();
  return useMutation({
    mutationFn: (request: LlmCheckRequest) =>
      api.send('POST', '/api/settings/llm-check', LlmCheckResult, request),
  });
}
