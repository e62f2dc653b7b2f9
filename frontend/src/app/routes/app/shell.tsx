import { useState } from 'react';
import { Outlet } from 'react-router-dom';

import { HomeShell } from '@/components/layouts/home-shell';
import { NewThoughtDialog } from '@/features/thoughts/components/new-thought-dialog';

/** Layout route for the tabbed screens (/home, /insights, /assist, /integrations, /settings). */
export function ShellLayout() {
  const [adding, setAdding] = useState(false);
  return (
    // The search overlay arrives with the thoughts feature; until then the button does nothing.
    <HomeShell onSearch={() => {}} onAddThought={() => setAdding(true)}>
      <Outlet />
      <NewThoughtDialog open={adding} onOpenChange={setAdding} />
    </HomeShell>
  );
}
