import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { MessageBody } from '../../../shared/api/errors';
import { LlmCheckResult, type LlmCheckRequest } from '../../../shared/api/llm-check';
import { Settings, type SettingsUpdate } from '../../../shared/api/settings';
import { isApiError } from './api-error';
import { useApi } from './ApiProvider';
import type { ApiClient } from './client';

/** Settings as loaded, keeping keys this version does not know so that saving sends them back. */
const StoredSettings = Settings.loose();
export type StoredSettings = z.infer<typeof StoredSettings>;

/** The fields a screen changes; every other field is sent back as it was loaded. */
export type SettingsEdits = z.input<typeof SettingsUpdate>;

export const settingsKeys = {
  settings: ['settings'],
  models: ['options', 'models'],
} as const;

/** GET /api/settings; null when settings were never saved (404), so screens show the defaults. */
async function loadSettings(api: ApiClient): Promise<StoredSettings | null> {
  try {
    return await api.get('/api/settings', StoredSettings);
  } catch (error) {
    if (isApiError(error, 404)) return null;
    throw error;
  }
}

export function useSettings() {
  const api = useApi();
  return useQuery({ queryKey: settingsKeys.settings, queryFn: () => loadSettings(api) });
}

export function useModels() {
  const api = useApi();
  return useQuery({
    queryKey: settingsKeys.models,
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
        queryClient.invalidateQueries({ queryKey: settingsKeys.settings }),
        queryClient.invalidateQueries({ queryKey: settingsKeys.models }),
      ]),
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
