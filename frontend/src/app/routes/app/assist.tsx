import { ChatCard } from '@/features/assistant/components/chat-card';
import { DigestCard } from '@/features/assistant/components/digest-card';
import { RecentConversations } from '@/features/assistant/components/recent-conversations';

/** The Assist screen: the digest card, recent conversations and the chat card, split 50/28/22. */
export function AssistRoute() {
  return (
    <div className="grid h-[calc(100dvh-10.5rem)] min-h-[34rem] grid-rows-[50fr_28fr_22fr] gap-3">
      <DigestCard />
      <RecentConversations />
      <ChatCard />
    </div>
  );
}
