import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type ReactNode } from 'react';

import { userKeys, useUser } from '@/features/auth/api/get-user';
import { AuthContext } from '@/features/auth/hooks/use-auth';
import { setSession } from '@/features/auth/lib/set-session';
import { whenUnauthorized } from '@/lib/session-lapse';

/**
 * Exposes the session (`useAuth()`); must sit inside the QueryClientProvider. A 401 to any call
 * while signed in means the session lapsed (revoked or expired): it ends here as a logout does (the
 * cache emptied, the user `null`; the offline queue and drafts on the device stay), and the
 * signed-in screens send the person to log in again with a notice (`sessionEnded`).
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { data, isLoading, error, refetch } = useUser();
  const [sessionEnded, setSessionEnded] = useState(false);
  if (sessionEnded && data) setSessionEnded(false);

  useEffect(
    () =>
      whenUnauthorized(() => {
        // A visitor's 401 (a wrong password at login) ends nothing.
        if (!queryClient.getQueryData(userKeys.current())) return;
        setSessionEnded(true);
        setSession(queryClient, null);
      }),
    [queryClient],
  );

  const value = useMemo(
    () => ({ user: data ?? null, isLoading, error, refetch: () => void refetch(), sessionEnded }),
    [data, isLoading, error, refetch, sessionEnded],
  );
  return <AuthContext value={value}>{children}</AuthContext>;
}
