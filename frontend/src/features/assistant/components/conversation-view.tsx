import type { Message } from '@haven/contracts/assistant';
import { linkScope, type LinkScope } from '@haven/contracts/link-policy';
import { ReplyProposals } from '@haven/contracts/proposals';
import type { Thought } from '@haven/contracts/thoughts';
import { useQuery } from '@tanstack/react-query';
import { Mail } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';

import { SaveToNotionButton } from '@/components/actions/save-to-notion';
import { Markdown } from '@/components/markdown/markdown';
import { ReferenceChip } from '@/components/thoughts/reference-chip';
import { Button } from '@/components/ui/button';
import { QueryError } from '@/components/ui/query-error';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/hooks/use-toast';
import { formatLongDate } from '@/lib/format-date';
import { cn } from '@/lib/utils';
import { useConversation } from '../api/get-conversation';
import { replied, useMessages } from '../api/get-messages';
import { useSendMessage } from '../api/send-message';
import { ChatInput } from './chat-input';
import { ConversationScreen, NoMessages } from './conversation-screen';
import { AssistantDraftDialog } from './assistant-draft-dialog';
import { DraftNotes, proposalsOf, Suggestions, type ProposedDraft } from './proposals';
import { timeOf } from './relative-time';

/** What links in this conversation's replies are judged against (see `judgeLink`). */
function scopeOf(list: Message[] | undefined): LinkScope {
  const messages = list ?? [];
  return linkScope({
    mine: messages.filter((m) => m.type === 'user').map((m) => m.content),
    replies: messages.filter((m) => m.type === 'assistant').map((m) => m.content),
    seen: messages.flatMap((m) => {
      const parsed = ReplyProposals.safeParse(m.metadata ?? {});
      return parsed.success ? (parsed.data.seenLinks ?? []) : [];
    }),
  });
}

/**
 * The query that resolves cited thought ids. Thoughts belong to another feature, so the app passes
 * its by-ids query options in (features do not import each other).
 */
export type CitedThoughtsQuery = (ids: readonly number[]) => {
  queryKey: readonly unknown[];
  queryFn: () => Promise<Thought[]>;
  enabled: boolean;
};

/** The thoughts a reply cites (metadata `references`): chip #n is the n-th, as its text numbers them. */
function referencesOf(message: Message): number[] {
  const refs = (message.metadata as { references?: unknown } | undefined)?.references;
  return Array.isArray(refs) ? refs.filter((r): r is number => Number.isInteger(r)).slice(0, 100) : [];
}

/** A reply's citation chips, each opening the thought it cites. */
function Citations({ ids, citedThoughts }: { ids: number[]; citedThoughts: CitedThoughtsQuery }) {
  const { data } = useQuery(citedThoughts(ids));
  const thoughts = useMemo(() => new Map((data ?? []).map((t) => [t.id, t])), [data]);
  return (
    <div aria-label="Cited thoughts" className="flex max-w-[85%] flex-wrap gap-1 px-1">
      {ids.map((id, i) => (
        <ReferenceChip key={id} n={i + 1} thought={thoughts.get(id)} />
      ))}
    </div>
  );
}

function Bubble({
  message,
  links,
  onDraft,
  citedThoughts,
}: {
  message: Message;
  links: LinkScope;
  onDraft: (draft: ProposedDraft) => void;
  citedThoughts?: CitedThoughtsQuery;
}) {
  const mine = message.type === 'user';
  const references = mine || !citedThoughts ? [] : referencesOf(message);
  const proposals = mine ? null : proposalsOf(message);
  const draft = proposals?.draft ?? null;
  return (
    <li className={cn('flex flex-col gap-1', mine ? 'items-end' : 'items-start')}>
      <div
        className={cn(
          'max-w-[85%] rounded-2xl px-3.5 py-2.5 text-[15px] leading-relaxed',
          mine ? 'rounded-br-md bg-accent text-accent-foreground' : 'rounded-bl-md bg-muted text-foreground',
        )}
      >
        {mine ? (
          <p className="whitespace-pre-wrap break-words">{message.content}</p>
        ) : (
          <Markdown text={message.content} links={links} />
        )}
      </div>
      {references.length > 0 && citedThoughts && <Citations ids={references} citedThoughts={citedThoughts} />}
      <div className="flex items-center gap-2 px-1 text-xs text-muted-foreground">
        <time dateTime={message.createdAt}>{timeOf(message.createdAt)}</time>
        {draft && (
          <Button size="sm" variant="outline" onClick={() => onDraft(draft)}>
            <Mail aria-hidden /> Edit &amp; Draft Email
          </Button>
        )}
      </div>
      {draft && (
        <div className="max-w-[85%] px-1">
          <DraftNotes draft={draft} />
        </div>
      )}
      {proposals && <Suggestions drafts={proposals.drafts} events={proposals.events} onDraft={onDraft} />}
    </li>
  );
}

/** One conversation: its messages, 'Thinking...' while the reply is awaited, and the message box. */
export function ConversationView({
  id,
  confirmEmails,
  citedThoughts,
}: {
  id: number;
  confirmEmails: boolean;
  /** Resolves the thoughts replies cite (their chips open them). */
  citedThoughts?: CitedThoughtsQuery;
}) {
  const conversation = useConversation(id);
  const [text, setText] = useState('');
  const [draft, setDraft] = useState<ProposedDraft | null>(null);
  // A failed send stops the waiting (spec 8) until the next send.
  const [gaveUp, setGaveUp] = useState(false);
  const [polling, setPolling] = useState(true);
  const messages = useMessages(id, polling);
  const list = messages.data;
  const links = useMemo(() => scopeOf(list), [list]);
  const send = useSendMessage({
    mutationConfig: {
      onError: () => {
        setGaveUp(true);
        toast({
          title: 'Error',
          description: 'Failed to send message. Please try again.',
          variant: 'destructive',
        });
      },
    },
  });
  // Waiting while the latest message is the user's (also after a reload mid-reply), until the reply
  // comes, an error, or a failed send.
  const awaitingReply = list !== undefined && list.length > 0 && !replied(list);
  const waiting = send.isPending || (awaitingReply && !messages.isError && !gaveUp);
  if (polling !== waiting) setPolling(waiting);
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Braces matter: Chromium's scrollIntoView now returns a promise, which is no effect cleanup.
    end.current?.scrollIntoView({ block: 'end' });
  }, [list?.length, waiting]);

  function submit(content: string) {
    setText('');
    setGaveUp(false);
    send.mutate({ conversationId: id, content });
  }

  const title = conversation.isPending ? 'Loading...' : conversation.data?.title || 'Conversation';
  return (
    <ConversationScreen
      title={title}
      subtitle={conversation.data && formatLongDate(new Date(conversation.data.createdAt))}
      headerAction={
        list && list.length > 0 ? (
          <SaveToNotionButton
            className="shrink-0"
            page={() => ({
              title,
              content: list
                .map((m) => `${m.type === 'user' ? 'You' : 'Assistant'}: ${m.content}`)
                .join('\n\n'),
            })}
          />
        ) : null
      }
      input={
        <ChatInput
          layout="inline"
          label="Message"
          placeholder="Type your message..."
          value={text}
          onValueChange={setText}
          onSend={submit}
          busy={send.isPending}
        />
      }
    >
      {messages.isPending ? (
        <div className="flex flex-col gap-3">
          <Skeleton className="h-12 w-2/3 self-end" />
          <Skeleton className="h-16 w-3/4" />
        </div>
      ) : messages.isError ? (
        <QueryError
          message="Failed to fetch messages"
          onRetry={messages.refetch}
          retrying={messages.isFetching}
        />
      ) : list!.length === 0 ? (
        <NoMessages />
      ) : (
        <ul className="flex flex-col gap-4">
          {list!.map((m) => (
            <Bubble key={m.id} message={m} links={links} onDraft={setDraft} citedThoughts={citedThoughts} />
          ))}
        </ul>
      )}
      {waiting && (
        <p role="status" className="mt-4 animate-pulse text-sm text-muted-foreground">
          Thinking...
        </p>
      )}
      <div ref={end} />
      <AssistantDraftDialog draft={draft} onClose={() => setDraft(null)} confirm={confirmEmails} />
    </ConversationScreen>
  );
}
