import { Search } from 'lucide-react';
import type { ReactNode } from 'react';

import { BottomTabBar } from '@/components/layouts/bottom-tab-bar';
import { Button } from '@/components/ui/button';

interface HomeShellProps {
  children: ReactNode;
  /** Shown beside the search button (e.g. how many thoughts wait to sync). */
  status?: ReactNode;
  onSearch: () => void;
  onAddThought: () => void;
}

/** The signed-in frame: header with the product name and search, the screen, the bottom tab bar. */
export function HomeShell({ children, status, onSearch, onAddThought }: HomeShellProps) {
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="sticky top-0 z-30 border-b bg-background/95 pt-[env(safe-area-inset-top)] backdrop-blur supports-[backdrop-filter]:bg-background/80">
        <div className="flex h-14 items-center justify-between pr-2 pl-4">
          <div className="flex items-center gap-2">
            <span aria-hidden="true" className="size-2.5 rounded-full bg-accent" />
            <span className="text-lg font-semibold tracking-tight">Haven</span>
          </div>
          <div className="flex items-center gap-1">
            {status}
            <Button variant="ghost" size="icon" aria-label="Search" onClick={onSearch}>
              <Search aria-hidden="true" className="!size-5" />
            </Button>
          </div>
        </div>
      </header>
      <main className="flex flex-1 flex-col px-4 pt-5 pb-[calc(6rem+env(safe-area-inset-bottom))]">
        {children}
      </main>
      <BottomTabBar onAddThought={onAddThought} />
    </div>
  );
}
