import { createContext, use } from 'react';

import type { User } from '@haven/contracts/auth';

export interface AuthContextValue {
  /** The signed-in user, or null for a visitor (and while the session is still loading). */
  user: User | null;
  isLoading: boolean;
  /** A failure of the session call other than 401 (a 401 simply means signed out). */
  error: Error | null;
  /** Asks the server again, e.g. from an error screen's retry button. */
  refetch: () => void;
  /** The session lapsed on this device (a 401 while signed in) and no one has logged in since. */
  sessionEnded: boolean;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const ctx = use(AuthContext);
  if (!ctx) throw new Error('useAuth must be used within an AuthProvider');
  return ctx;
}
