import { useEffect, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';

import { Button } from '@/components/ui/button';
import { FullPageSpinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';

interface ProtectedRouteProps {
  /** Rendered when signed in; without it the nested routes (`<Outlet />`) are. */
  children?: ReactNode;
  /** Where a visitor is sent. */
  redirectTo?: string;
  /** A toast telling a visitor why they were sent away. */
  visitorToast?: { title: string; description: string };
}

/**
 * Gate for signed-in screens: spinner while the session loads, redirect for visitors. A session that
 * lapsed here goes to /auth, whose screen says so.
 */
export function ProtectedRoute({
  children,
  redirectTo = paths.welcome.path,
  visitorToast,
}: ProtectedRouteProps) {
  const { user, isLoading, error, refetch, sessionEnded } = useAuth();
  const location = useLocation();
  const turnedAway = !isLoading && !error && !user;
  useEffect(() => {
    if (turnedAway && visitorToast) toast({ ...visitorToast, variant: 'destructive' });
  }, [turnedAway, visitorToast]);

  if (isLoading) return <FullPageSpinner />;
  if (error && !user) return <SessionError message={getErrorMessage(error)} onRetry={refetch} />;
  if (!user && sessionEnded)
    return <Navigate to={paths.auth.path} replace state={{ from: location.pathname, sessionEnded }} />;
  if (!user) return <Navigate to={redirectTo} replace state={{ from: location.pathname }} />;
  return children ?? <Outlet />;
}

/** The session call failed for a reason other than 401: say so and offer a retry, not a redirect. */
function SessionError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div role="alert" className="flex min-h-dvh flex-col items-center justify-center gap-3 p-6 text-center">
      <h1 className="text-lg font-semibold">Could not reach Haven</h1>
      <p className="max-w-xs text-sm text-muted-foreground">{message}</p>
      <Button onClick={onRetry}>Try Again</Button>
    </div>
  );
}
