import { useState } from 'react';
import { Outlet } from 'react-router-dom';

import { HomeShell } from '@/components/layouts/home-shell';
import { useCreateConversation } from '@/features/assistant/api/create-conversation';
import { useDeleteConversation } from '@/features/assistant/api/delete-conversation';
import { CaptureDialog } from '@/features/thoughts/components/capture-dialog';
import { QueuedThoughtsCount } from '@/features/thoughts/components/queued-thoughts';
import { SearchOverlay } from '@/features/thoughts/components/search-overlay';
import { useSearchOverlay } from '@/features/thoughts/hooks/use-search-overlay';

/** Layout route for the tabbed screens (/home, /insights, /assist, /integrations, /settings). */
export function ShellLayout() {
  const [adding, setAdding] = useState(false);
  // A chat-type capture starts a conversation, which the assistant feature owns.
  const startChat = useCreateConversation();
  const { mutateAsync: discardChat } = useDeleteConversation();
  const searching = useSearchOverlay();
  return (
    <HomeShell
      status={<QueuedThoughtsCount />}
      onSearch={searching.show}
      onAddThought={() => setAdding(true)}
    >
      <Outlet />
      <CaptureDialog open={adding} onOpenChange={setAdding} startChat={startChat} discardChat={discardChat} />
      <SearchOverlay open={searching.open} onClose={searching.close} />
    </HomeShell>
  );
}
