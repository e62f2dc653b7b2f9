import type { ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router-dom';

import { useAuth } from '@/features/auth/hooks/use-auth';

interface GuestRouteProps {
  children?: ReactNode;
  /** Where a signed-in user is sent instead. */
  redirectTo: string;
}

/**
 * For visitor-only screens (welcome, auth, verify-code). The screen shows at once, so visitors do not
 * wait for the session call; a signed-in user is moved on as soon as it answers.
 */
export function GuestRoute({ children, redirectTo }: GuestRouteProps) {
  const { user } = useAuth();
  if (user) return <Navigate to={redirectTo} replace />;
  return children ?? <Outlet />;
}
