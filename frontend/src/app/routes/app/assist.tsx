import { ChatCard } from '@/features/assistant/components/chat-card';
import { RecentConversations } from '@/features/assistant/components/recent-conversations';
import { DigestCard } from '@/features/mail/components/digest-card';
import { usePreferences } from '@/features/settings/api/get-preferences';

/** The Assist screen: the digest card, recent conversations and the chat card, split 50/28/22. */
export function AssistRoute() {
  const preferences = usePreferences().data;
  return (
    <div className="grid h-[calc(100dvh-10.5rem)] min-h-[34rem] grid-rows-[50fr_28fr_22fr] gap-3">
      {/* The tab's name for screen readers; the cards' own headings show what is on screen. */}
      <h1 className="sr-only">Assist</h1>
      <DigestCard confirmEmails={preferences?.askBeforeEmails ?? true} />
      <RecentConversations />
      <ChatCard />
    </div>
  );
}
