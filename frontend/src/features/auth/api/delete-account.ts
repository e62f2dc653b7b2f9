import { useMutation, useQueryClient } from '@tanstack/react-query';

import { authContract } from '@haven/contracts/auth';
import { setSession } from '@/features/auth/lib/set-session';
import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';

/** Deletes the account (the password confirms it); the server signs out every session. */
export async function deleteAccount(password: string): Promise<void> {
  await api(authContract.deleteAccount, { body: { password } });
}

/** Deletes the account and empties the cache; the caller's `onSuccess` then runs. */
export function useDeleteAccount({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof deleteAccount> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: deleteAccount,
    onSuccess: (...args) => {
      setSession(queryClient, null);
      queryClient.clear();
      return onSuccess?.(...args);
    },
  });
}
