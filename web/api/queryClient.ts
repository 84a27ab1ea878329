// Shared infrastructure of web/api/: the one QueryClient and its defaults (retries, staleness).
import { QueryClient } from "@tanstack/react-query";
import { isApiError } from "./client";

/** Client errors (4xx) will not change on a retry; server and network errors get one more try. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: shouldRetry,
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
    },
  });
}
