import type { Message } from '@haven/contracts/assistant';
import { emailDraftIn, type EmailDraft } from '@haven/contracts/conversation-rules';
import { ArrowLeft, Mail, Send } from 'lucide-react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';

import { SaveToNotionButton } from '@/components/actions/save-to-notion';
import { Markdown } from '@/components/markdown/markdown';
import { Button, buttonVariants } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { formatLongDate } from '@/lib/format-date';
import { cn } from '@/lib/utils';
import { useConversation } from '../api/get-conversation';
import { replied, useMessages } from '../api/get-messages';
import { useSendMessage } from '../api/send-message';
import { DraftEmailDialog } from './draft-email-dialog';
import { timeOf } from './relative-time';

function Bubble({ message, onDraft }: { message: Message; onDraft: (draft: EmailDraft) => void }) {
  const mine = message.type === 'user';
  const draft = mine ? null : emailDraftIn(message.content);
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
          <Markdown text={message.content} />
        )}
      </div>
      <div className="flex items-center gap-2 px-1 text-xs text-muted-foreground">
        <time dateTime={message.createdAt}>{timeOf(message.createdAt)}</time>
        {draft && (
          <Button size="sm" variant="outline" className="h-7" onClick={() => onDraft(draft)}>
            <Mail aria-hidden /> Edit &amp; Draft Email
          </Button>
        )}
      </div>
    </li>
  );
}

/** One conversation: its messages, 'Thinking...' while the reply is awaited, and the message box. */
export function ConversationView({ id, confirmEmails }: { id: number; confirmEmails: boolean }) {
  const conversation = useConversation(id);
  const [text, setText] = useState('');
  const [draft, setDraft] = useState<EmailDraft | null>(null);
  // A failed send stops the waiting (spec 8) until the next send.
  const [gaveUp, setGaveUp] = useState(false);
  const [polling, setPolling] = useState(true);
  const messages = useMessages(id, polling);
  const list = messages.data;
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

  function submit() {
    const content = text.trim();
    if (!content || send.isPending) return;
    setText('');
    setGaveUp(false);
    send.mutate({ conversationId: id, content });
  }
  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      submit();
    }
  }

  const title = conversation.isPending ? 'Loading...' : conversation.data?.title || 'Conversation';
  return (
    <main className="flex min-h-dvh flex-col">
      <header className="sticky top-0 z-10 flex items-center gap-2 border-b bg-background/95 px-2 pt-[calc(0.5rem+env(safe-area-inset-top))] pb-2 backdrop-blur">
        <Link
          to={paths.conversations.getHref()}
          aria-label="Back"
          className={buttonVariants({ variant: 'ghost', size: 'icon' })}
        >
          <ArrowLeft aria-hidden className="!size-5" />
        </Link>
        <div className="min-w-0 flex-1">
          <h1 className="truncate font-semibold">{title}</h1>
          {conversation.data && (
            <p className="text-xs text-muted-foreground">
              {formatLongDate(new Date(conversation.data.createdAt))}
            </p>
          )}
        </div>
        {list && list.length > 0 ? (
          <SaveToNotionButton
            className="shrink-0"
            page={() => ({
              title,
              content: list
                .map((m) => `${m.type === 'user' ? 'You' : 'Assistant'}: ${m.content}`)
                .join('\n\n'),
            })}
          />
        ) : null}
      </header>
      <div className="flex flex-1 flex-col px-4 py-4">
        {messages.isPending ? (
          <div className="flex flex-col gap-3">
            <Skeleton className="h-12 w-2/3 self-end" />
            <Skeleton className="h-16 w-3/4" />
          </div>
        ) : messages.isError ? (
          <p className="text-sm text-destructive dark:text-red-400">Failed to fetch messages</p>
        ) : list!.length === 0 ? (
          <div className="m-auto flex flex-col items-center gap-1 text-center">
            <p className="font-medium">No messages yet</p>
            <p className="text-sm text-muted-foreground">Send a message to start the conversation</p>
          </div>
        ) : (
          <ul className="flex flex-col gap-4">
            {list!.map((m) => (
              <Bubble key={m.id} message={m} onDraft={setDraft} />
            ))}
          </ul>
        )}
        {waiting && (
          <p role="status" className="mt-4 animate-pulse text-sm text-muted-foreground">
            Thinking...
          </p>
        )}
        <div ref={end} />
      </div>
      <form
        className="sticky bottom-0 flex items-end gap-2 border-t bg-background px-3 pt-2 pb-[calc(0.5rem+env(safe-area-inset-bottom))]"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Textarea
          aria-label="Message"
          placeholder="Type your message..."
          rows={1}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          className="max-h-40 min-h-10 resize-none"
        />
        <Button type="submit" size="icon" aria-label="Send" disabled={!text.trim() || send.isPending}>
          <Send aria-hidden />
        </Button>
      </form>
      <DraftEmailDialog
        key={draft ? draft.subject + draft.body : 'none'}
        draft={draft}
        onClose={() => setDraft(null)}
        confirm={confirmEmails}
      />
    </main>
  );
}
