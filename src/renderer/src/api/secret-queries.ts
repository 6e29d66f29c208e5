import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { MessageBody } from '../../../shared/api/errors';
import { CustomSecretList, type CreateSecretRequest } from '../../../shared/api/secrets';
import { useApi } from './ApiProvider';

export type NewSecret = z.input<typeof CreateSecretRequest>;

const keys = {
  secrets: ['secrets'],
} as const;

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
