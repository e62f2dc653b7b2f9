import { useMemo, type ReactNode } from 'react';

import { useUser } from '@/features/auth/api/get-user';
import { AuthContext } from '@/features/auth/hooks/use-auth';

/** Exposes the session (`useAuth()`); must sit inside the QueryClientProvider. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const { data, isLoading, error, refetch } = useUser();

  const value = useMemo(
    () => ({ user: data ?? null, isLoading, error, refetch: () => void refetch() }),
    [data, isLoading, error, refetch],
  );
  return <AuthContext value={value}>{children}</AuthContext>;
}
