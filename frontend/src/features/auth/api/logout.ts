import { useMutation, useQueryClient } from '@tanstack/react-query';

import { setSession } from '@/features/auth/lib/set-session';
import { toast } from '@/hooks/use-toast';
import { apiFetch, getErrorMessage } from '@/lib/api-client';

/** POST /api/logout: revokes the session and clears the cookie (the answer is not read). */
export async function logout(): Promise<void> {
  await apiFetch<unknown>('/api/logout', { method: 'POST' });
}

/** Logs out, empties the cache and says so; `onSuccess` then navigates. */
export function useLogout({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => {
      setSession(queryClient, null);
      toast({ title: 'Logged out', description: "You've been successfully logged out." });
      onSuccess?.();
    },
    onError: (error) => {
      toast({ title: 'Logout failed', description: getErrorMessage(error), variant: 'destructive' });
    },
  });
}
