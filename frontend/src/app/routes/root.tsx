import { Outlet, ScrollRestoration } from 'react-router-dom';

import { AppColumn } from '@/components/layouts/app-column';

/** Every screen sits in the centred mobile column. */
export function RootLayout() {
  return (
    <AppColumn>
      <Outlet />
      <ScrollRestoration />
    </AppColumn>
  );
}
