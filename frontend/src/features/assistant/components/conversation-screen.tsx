import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';

interface ConversationScreenProps {
  title: string;
  /** Under the title (the creation date). */
  subtitle?: ReactNode;
  /** At the end of the header (Save to Notion). */
  headerAction?: ReactNode;
  /** The messages, or what stands in for them. */
  children: ReactNode;
  /** The message box, kept at the bottom. */
  input: ReactNode;
}

/** The frame of a conversation: header with a back button to the list, the messages, the input. */
export function ConversationScreen({
  title,
  subtitle,
  headerAction,
  children,
  input,
}: ConversationScreenProps) {
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
          {subtitle && <p className="text-xs text-muted-foreground">{subtitle}</p>}
        </div>
        {headerAction}
      </header>
      <div className="flex flex-1 flex-col px-4 py-4">{children}</div>
      <div className="sticky bottom-0 border-t bg-background px-3 pt-2 pb-[calc(0.5rem+env(safe-area-inset-bottom))]">
        {input}
      </div>
    </main>
  );
}

/** Spec: a conversation with no messages yet. */
export function NoMessages() {
  return (
    <div className="m-auto flex flex-col items-center gap-1 text-center">
      <p className="font-medium">No messages yet</p>
      <p className="text-sm text-muted-foreground">Send a message to start the conversation</p>
    </div>
  );
}
