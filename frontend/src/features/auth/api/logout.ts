import { useMutation, useQueryClient } from '@tanstack/react-query';

import { authContract } from '@haven/contracts/auth';
import { setSession } from '@/features/auth/lib/set-session';
import { api } from '@/lib/api';
import { clearDrafts } from '@/lib/drafts';
import type { MutationConfig } from '@/lib/query-client';

/** Revokes the session and clears the cookie (the answer is not read). */
export async function logout(): Promise<void> {
  await api(authContract.logout);
}

/** Logs out, empties the cache and deletes the drafts kept on this device; the caller's `onSuccess` then runs. */
export function useLogout({ mutationConfig }: { mutationConfig?: MutationConfig<typeof logout> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...restConfig } = mutationConfig ?? {};
  return useMutation({
    ...restConfig,
    mutationFn: logout,
    onSuccess: async (...args) => {
      // Deleted before the session ends on this device: leaving the signed-in screens (or closing
      // the tab right after) must not cut the deletion short.
      await clearDrafts();
      setSession(queryClient, null);
      return onSuccess?.(...args);
    },
  });
}
