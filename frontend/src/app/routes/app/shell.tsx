import { useState } from 'react';
import { Outlet } from 'react-router-dom';

import { HomeShell } from '@/components/layouts/home-shell';
import { CaptureDialog } from '@/features/capture/components/capture-dialog';
import { SearchOverlay } from '@/features/search/components/search-overlay';

/** Layout route for the tabbed screens (/home, /insights, /assist, /integrations, /settings). */
export function ShellLayout() {
  const [adding, setAdding] = useState(false);
  const [searching, setSearching] = useState(false);
  return (
    <HomeShell onSearch={() => setSearching(true)} onAddThought={() => setAdding(true)}>
      <Outlet />
      <CaptureDialog open={adding} onOpenChange={setAdding} />
      <SearchOverlay open={searching} onClose={() => setSearching(false)} />
    </HomeShell>
  );
}
