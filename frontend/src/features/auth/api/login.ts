import { useMutation, useQueryClient } from '@tanstack/react-query';

import { authContract, type User } from '@haven/contracts/auth';
import { setSession } from '@/features/auth/lib/set-session';
import { api, type ApiBody } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';

/** Sets the session cookie and answers the user (401 'Invalid email or password'). */
export function login(body: ApiBody<typeof authContract.login>): Promise<User> {
  return api(authContract.login, { body });
}

/** Logs in and replaces the whole cache with the new session; the caller's `onSuccess` then runs. */
export function useLogin({ mutationConfig }: { mutationConfig?: MutationConfig<typeof login> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...restConfig } = mutationConfig ?? {};
  return useMutation({
    ...restConfig,
    mutationFn: login,
    onSuccess: (...args) => {
      setSession(queryClient, args[0]);
      return onSuccess?.(...args);
    },
  });
}
