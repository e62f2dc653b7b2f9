import { Outlet, ScrollRestoration, useMatches } from 'react-router-dom';

import { AppColumn } from '@/components/layouts/app-column';

/** A route's `handle`; `wideColumn` lets a screen grow past the phone column on wide screens. */
export interface RouteHandle {
  wideColumn?: boolean;
}

/** Every screen sits in the centred mobile column. */
export function RootLayout() {
  const wide = useMatches().some((match) => (match.handle as RouteHandle | undefined)?.wideColumn);
  return (
    <AppColumn wide={wide}>
      <Outlet />
      <ScrollRestoration />
    </AppColumn>
  );
}
