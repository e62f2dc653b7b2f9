import { queryOptions, useQuery } from '@tanstack/react-query';

import { authContract, type User } from '@haven/contracts/auth';
import { HttpError } from '@haven/contracts/client';
import { api } from '@/lib/api';
import { forgetServedSession } from '@/lib/served-session';

/** Query keys for the session; login, register and logout write or clear `userKeys.current()`. */
export const userKeys = {
  all: ['user'] as const,
  current: () => [...userKeys.all, 'current'] as const,
};

const LAST_USER = 'haven:last-user';

/** Remembers who is signed in on this device, so the app still opens for them offline. */
export function rememberUser(user: User | null): void {
  try {
    if (user)
      localStorage.setItem(
        LAST_USER,
        JSON.stringify({
          id: user.id,
          username: user.username,
          name: user.name,
          email: user.email,
          isEmailVerified: user.isEmailVerified,
        }),
      );
    else localStorage.removeItem(LAST_USER);
  } catch {
    // Storage refused (private mode): the app simply needs the network to open.
  }
}

function lastUser(): User | null {
  try {
    const stored = localStorage.getItem(LAST_USER);
    return stored ? (JSON.parse(stored) as User) : null;
  } catch {
    return null;
  }
}

/**
 * The signed-in user, or `null` for a visitor. Asked of the public `/api/session`, which answers a
 * visitor with 200 `{ user: null }`: a 401 would be a failed request in every visitor's console.
 * Without a network (the request itself failed, no answer came) the user last signed in on this
 * device is assumed, so capture still works offline; the server decides again as soon as it answers.
 */
export async function getUser(): Promise<User | null> {
  try {
    const { user } = await api(authContract.session);
    forgetServedSession();
    rememberUser(user);
    return user;
  } catch (error) {
    const offline = !(error instanceof HttpError) && lastUser();
    if (offline) return offline;
    throw error;
  }
}

export function getUserQueryOptions() {
  return queryOptions({ queryKey: userKeys.current(), queryFn: getUser });
}

/** The session query. `data` is the user, `null` for a visitor, `undefined` while loading. */
export function useUser() {
  return useQuery(getUserQueryOptions());
}
