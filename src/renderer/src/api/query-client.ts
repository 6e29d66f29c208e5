import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-error';

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
