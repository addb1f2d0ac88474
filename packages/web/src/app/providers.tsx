import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { QUERY_GC_TIME_MS, QUERY_RETRY_COUNT, QUERY_RETRY_MAX_DELAY_MS } from '@outpost/contract/limits';
import { ToastProvider } from '../components/ui/toast';
import { ApiError } from '../lib/api-client';
import { AuthProvider } from '../lib/auth';

// docs/architecture.md#web-app — failed queries retry 3 times with a delay doubling from 1 s up to 30 s; unused
// data lives 5 minutes. A 4xx (not signed in, not allowed, not found, bad input) is an answer,
// not a failure, so it is not retried.
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) &&
          failureCount < QUERY_RETRY_COUNT,
        retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, QUERY_RETRY_MAX_DELAY_MS),
        gcTime: QUERY_GC_TIME_MS,
        refetchOnWindowFocus: false,
      },
    },
  });
}

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <AuthProvider>{children}</AuthProvider>
      </ToastProvider>
    </QueryClientProvider>
  );
}
