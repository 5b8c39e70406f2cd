import { QueryClient } from '@tanstack/react-query';

/**
 * Retries are off: the request layer already told the user about a failure, and a retry would
 * repeat the notice (or the side effect) for nothing.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});
