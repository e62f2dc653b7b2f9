import { Outlet } from 'react-router-dom';

import { useAuth } from '@/features/auth/hooks/use-auth';
import { QueuedThoughtsSync } from '@/features/thoughts/components/queued-thoughts';
import { SignedInUserContext } from '@/lib/signed-in-user';

/**
 * Every signed-in screen: thoughts saved on this device while offline are sent from here, and what
 * is kept on the device per user (drafts, the capture mode) knows whose it is.
 */
export function SignedInLayout() {
  const { user } = useAuth();
  return (
    <SignedInUserContext value={user?.id ?? null}>
      <QueuedThoughtsSync />
      <Outlet />
    </SignedInUserContext>
  );
}
