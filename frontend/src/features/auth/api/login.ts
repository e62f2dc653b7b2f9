import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { LoginBody, User } from '@haven/contracts/auth';
import { setSession } from '@/features/auth/lib/set-session';
import { toast } from '@/hooks/use-toast';
import { apiFetch, getErrorMessage } from '@/lib/api-client';

/** POST /api/login: sets the session cookie and answers the user (401 'Invalid email or password'). */
export function login(body: LoginBody): Promise<User> {
  return apiFetch<User>('/api/login', { method: 'POST', body });
}

/** Logs in, replaces the whole cache with the new session and says so; `onSuccess` then navigates. */
export function useLogin({ onSuccess }: { onSuccess?: (user: User) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (user) => {
      setSession(queryClient, user);
      toast({ title: 'Welcome back!', description: "You've successfully logged in." });
      onSuccess?.(user);
    },
    onError: (error) => {
      toast({ title: 'Login failed', description: getErrorMessage(error), variant: 'destructive' });
    },
  });
}
