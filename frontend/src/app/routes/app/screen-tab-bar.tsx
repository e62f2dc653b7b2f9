import type { Thought } from '@haven/contracts/thoughts';
import { useState } from 'react';

import { BottomTabBar } from '@/components/layouts/bottom-tab-bar';
import { useCreateConversation } from '@/features/assistant/api/create-conversation';
import { useDeleteConversation } from '@/features/assistant/api/delete-conversation';
import { CaptureDialog } from '@/features/thoughts/components/capture-dialog';

/**
 * The bottom tab bar and its add-thought dialog on a screen outside the home shell (the timeline,
 * the conversations list). The screen leaves room for it at its bottom (6rem). A screen showing one
 * day passes it as `day` (entries are dated that day) and follows a saved thought with `onSaved`.
 */
export function ScreenTabBar({ day, onSaved }: { day?: string; onSaved?: (thought: Thought) => void } = {}) {
  const [adding, setAdding] = useState(false);
  // A chat-type capture starts a conversation, which the assistant feature owns.
  const startChat = useCreateConversation();
  const { mutateAsync: discardChat } = useDeleteConversation();
  return (
    <>
      <BottomTabBar onAddThought={() => setAdding(true)} />
      <CaptureDialog
        open={adding}
        onOpenChange={setAdding}
        startChat={startChat}
        discardChat={discardChat}
        day={day}
        onSaved={onSaved}
      />
    </>
  );
}
