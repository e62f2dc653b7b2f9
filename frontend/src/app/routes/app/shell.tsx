import type { Thought } from '@haven/contracts/thoughts';
import { lazy, Suspense, useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';

import { HomeShell } from '@/components/layouts/home-shell';
import { useCreateConversation } from '@/features/assistant/api/create-conversation';
import { useDeleteConversation } from '@/features/assistant/api/delete-conversation';
import { usePreferences } from '@/features/settings/api/get-preferences';
import { QueuedThoughtsCount } from '@/features/thoughts/components/queued-thoughts';
import { useSearchOverlay } from '@/features/thoughts/hooks/use-search-overlay';

// The capture dialog and the search overlay (with the Markdown renderer behind thought cards) load
// when first opened, not with every tabbed screen.
const CaptureDialog = lazy(() =>
  import('@/features/thoughts/components/capture-dialog').then((m) => ({ default: m.CaptureDialog })),
);
const SavedThoughtActions = lazy(() =>
  import('@/features/thoughts/components/saved-thought-actions').then((m) => ({
    default: m.SavedThoughtActions,
  })),
);
const SearchOverlay = lazy(() =>
  import('@/features/thoughts/components/search-overlay').then((m) => ({ default: m.SearchOverlay })),
);

/** Layout route for the tabbed screens (/home, /insights, /assist, /integrations, /settings). */
export function ShellLayout() {
  const [adding, setAdding] = useState(false);
  // Once opened, each stays mounted so closing it animates like any dialog.
  const [opened, setOpened] = useState({ capture: false, search: false });
  // A chat-type capture starts a conversation, which the assistant feature owns.
  const startChat = useCreateConversation();
  const { mutateAsync: discardChat } = useDeleteConversation();
  // Search's open state lives in the history (Back closes it), so a reload may open it directly.
  const searching = useSearchOverlay();
  if (searching.open && !opened.search) setOpened((o) => ({ ...o, search: true }));
  // The thought just saved, with the screen it was saved on: its actions show there until dismissed.
  const [saved, setSaved] = useState<{ thought: Thought; path: string } | null>(null);
  const { pathname } = useLocation();
  const preferences = usePreferences().data;
  return (
    <HomeShell
      status={<QueuedThoughtsCount />}
      onSearch={() => searching.show()}
      onAddThought={() => {
        setOpened((o) => ({ ...o, capture: true }));
        setAdding(true);
      }}
    >
      {saved?.path === pathname && (
        <Suspense fallback={null}>
          <SavedThoughtActions
            key={saved.thought.id}
            thought={saved.thought}
            confirm={{
              emails: preferences?.askBeforeEmails ?? true,
              events: preferences?.askBeforeCalendarEvents ?? true,
            }}
            onDismiss={() => setSaved(null)}
          />
        </Suspense>
      )}
      <Outlet />
      <Suspense fallback={null}>
        {opened.capture && (
          <CaptureDialog
            open={adding}
            onOpenChange={setAdding}
            startChat={startChat}
            discardChat={discardChat}
            onSaved={(thought) => setSaved({ thought, path: pathname })}
          />
        )}
        {opened.search && (
          <SearchOverlay open={searching.open} onClose={searching.close} tag={searching.tag} />
        )}
      </Suspense>
    </HomeShell>
  );
}
