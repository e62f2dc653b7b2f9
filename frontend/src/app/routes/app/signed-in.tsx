import { Outlet } from 'react-router-dom';

import { QueuedThoughtsSync } from '@/features/thoughts/components/queued-thoughts';

/** Every signed-in screen: thoughts saved on this device while offline are sent from here. */
export function SignedInLayout() {
  return (
    <>
      <QueuedThoughtsSync />
      <Outlet />
    </>
  );
}
