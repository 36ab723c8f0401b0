import { QueryClient } from '@tanstack/react-query';

/**
 * The one QueryClient of the page. @tanstack/react-query is a Module Federation singleton, so the
 * remotes' hooks read and write this client's cache.
 *
 * Read policy from the spec: reads are not retried, do not refetch on window focus, do not poll
 * and never go stale.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Infinity,
      },
    },
  });
}
