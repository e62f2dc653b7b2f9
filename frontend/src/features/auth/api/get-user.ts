import { queryOptions, useQuery } from '@tanstack/react-query';

import { authContract, type User } from '@haven/contracts/auth';
import { api } from '@/lib/api';

/** Query keys for the session; login, register and logout write or clear `userKeys.current()`. */
export const userKeys = {
  all: ['user'] as const,
  current: () => [...userKeys.all, 'current'] as const,
};

/** The signed-in user, or `null` when the session is missing (401). */
export function getUser(): Promise<User | null> {
  return api(authContract.currentUser, { on401: 'returnNull' });
}

export function getUserQueryOptions() {
  return queryOptions({ queryKey: userKeys.current(), queryFn: getUser });
}

/** The session query. `data` is the user, `null` for a visitor, `undefined` while loading. */
export function useUser() {
  return useQuery(getUserQueryOptions());
}
