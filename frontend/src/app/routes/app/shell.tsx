import { useState } from 'react';
import { Outlet } from 'react-router-dom';

import { HomeShell } from '@/components/layouts/home-shell';
import { useCreateConversation } from '@/features/assistant/api/create-conversation';
import { CaptureDialog } from '@/features/thoughts/components/capture-dialog';
import { QueuedThoughtsCount } from '@/features/thoughts/components/queued-thoughts';
import { SearchOverlay } from '@/features/thoughts/components/search-overlay';

/** Layout route for the tabbed screens (/home, /insights, /assist, /integrations, /settings). */
export function ShellLayout() {
  const [adding, setAdding] = useState(false);
  // A chat-type capture starts a conversation, which the assistant feature owns.
  const startChat = useCreateConversation();
  const [searching, setSearching] = useState(false);
  return (
    <HomeShell
      status={<QueuedThoughtsCount />}
      onSearch={() => setSearching(true)}
      onAddThought={() => setAdding(true)}
    >
      <Outlet />
      <CaptureDialog open={adding} onOpenChange={setAdding} startChat={startChat} />
      <SearchOverlay open={searching} onClose={() => setSearching(false)} />
    </HomeShell>
  );
}
