import { hashKey, type QueryClient } from '@tanstack/react-query';

import type { User } from '@haven/contracts/auth';
import { rememberUser, userKeys } from '@/features/auth/api/get-user';

/**
 * Starts a new session in the cache (spec 4: login, registration and logout clear all cached data and
 * store the returned user). Everything except the current-user query is dropped and that one is
 * overwritten: removing it too would detach the mounted session observer, which would then keep
 * reporting the previous user until something else re-rendered it.
 */
export function setSession(queryClient: QueryClient, user: User | null): void {
  const current = userKeys.current();
  const currentHash = hashKey(current);
  queryClient.removeQueries({ predicate: (query) => query.queryHash !== currentHash });
  queryClient.setQueryData(current, user);
  rememberUser(user);
}
