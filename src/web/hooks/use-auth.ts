import { useQuery } from '@tanstack/react-query';
import type { User } from '@/contracts/auth';
import { AUTH_PATHS } from '@/contracts/auth-paths';
import { queryKeys } from '@/web/lib/query-keys';

/**
 * The seed's user query: 401 gives null (unauthenticated); any other failure is an error with
 * the message `{status}: {statusText}`, and an answer that is not a user is refused as `api()`
 * refuses one. Fetched directly rather than through `api()`, whose 401 is an error. No retry,
 * never stale, refetched on focus, mount, reconnect and every 60 s; kept 300000 ms in cache.
 * The schema check is loaded with the first user it reads: a signed-out visitor of a public page
 * (the customer portal on a phone) never downloads zod for it.
 */
async function fetchUser(): Promise<User | null> {
  const response = await fetch(AUTH_PATHS.user, { credentials: 'include' });
  if (!response.ok) {
    // Drop the unread body: API answers are no-store, so an unread one would hold the request open.
    await response.body?.cancel();
    if (response.status === 401) return null;
    throw new Error(`${response.status}: ${response.statusText}`);
  }
  const [{ checked }, { authEndpoints }, body] = await Promise.all([
    import('@/web/lib/api'),
    import('@/contracts/auth'),
    response.json(),
  ]);
  return checked(authEndpoints.user, body);
}

export function useAuth() {
  const query = useQuery<User | null>({
    queryKey: queryKeys.auth.user(),
    queryFn: fetchUser,
    retry: false,
    staleTime: 0,
    gcTime: 300_000,
    refetchOnWindowFocus: true,
    refetchOnMount: true,
    refetchOnReconnect: true,
    refetchInterval: 60_000,
  });
  const user = query.data ?? null;
  return { user, isLoading: query.isLoading, isAuthenticated: !!user, error: query.error };
}
