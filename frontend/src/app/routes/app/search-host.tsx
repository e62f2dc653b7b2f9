import { lazy, Suspense, useState } from 'react';

import { useSearchOverlay } from '@/features/thoughts/hooks/use-search-overlay';

const SearchOverlay = lazy(() =>
  import('@/features/thoughts/components/search-overlay').then((m) => ({ default: m.SearchOverlay })),
);

/**
 * The search overlay for a screen outside the tabbed shell (the timeline, whose tag chips open it):
 * loaded when first opened, then kept mounted so closing it animates.
 */
export function SearchHost() {
  const searching = useSearchOverlay();
  const [opened, setOpened] = useState(false);
  if (searching.open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <SearchOverlay open={searching.open} onClose={searching.close} tag={searching.tag} />
    </Suspense>
  );
}
