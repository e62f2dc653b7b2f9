import { useState } from 'react';

import { BottomTabBar } from '@/components/layouts/bottom-tab-bar';
import { useCreateConversation } from '@/features/assistant/api/create-conversation';
import { useDeleteConversation } from '@/features/assistant/api/delete-conversation';
import { CaptureDialog } from '@/features/thoughts/components/capture-dialog';

/**
 * The bottom tab bar and its add-thought dialog on a screen outside the home shell (the timeline,
 * the conversations list). The screen leaves room for it at its bottom (6rem).
 */
export function ScreenTabBar() {
  const [adding, setAdding] = useState(false);
  // A chat-type capture starts a conversation, which the assistant feature owns.
  const startChat = useCreateConversation();
  const { mutateAsync: discardChat } = useDeleteConversation();
  return (
    <>
      <BottomTabBar onAddThought={() => setAdding(true)} />
      <CaptureDialog open={adding} onOpenChange={setAdding} startChat={startChat} discardChat={discardChat} />
    </>
  );
}
