import { whenSignedIn } from '@/app/routes/app/prefetch';
import { getConversationsQueryOptions } from '@/features/assistant/api/get-conversations';
import { ChatCard } from '@/features/assistant/components/chat-card';
import { RecentConversations } from '@/features/assistant/components/recent-conversations';
import {
  getCalendarQueryOptions,
  getEmailsQueryOptions,
  getMoreQueryOptions,
} from '@/features/mail/api/digest';
import { DigestCard } from '@/features/mail/components/digest-card';
import { getPreferencesQueryOptions, usePreferences } from '@/features/settings/api/get-preferences';
import { queryClient } from '@/lib/query-client';

/** What the screen first shows: the digest's three panels, the recent conversations, the preferences. */
export function prefetch() {
  whenSignedIn(() => {
    void queryClient.prefetchQuery(getEmailsQueryOptions());
    void queryClient.prefetchQuery(getCalendarQueryOptions());
    void queryClient.prefetchQuery(getMoreQueryOptions());
    void queryClient.prefetchQuery(getConversationsQueryOptions());
    void queryClient.prefetchQuery(getPreferencesQueryOptions());
  });
}

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
