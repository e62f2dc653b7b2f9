import type { Conversation } from '@haven/contracts/assistant';
import { Trash2 } from 'lucide-react';
import { Link } from 'react-router-dom';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { relativeTime } from './relative-time';

/** A conversation's card: title, when it was last active, its badges, and delete. */
export function ConversationCard({
  conversation,
  onDelete,
}: {
  conversation: Conversation;
  onDelete: () => void;
}) {
  return (
    <li className="relative flex items-start gap-2 rounded-xl border bg-card p-3 shadow-xs">
      <Link
        to={paths.conversation.getHref(conversation.id)}
        className="flex min-w-0 flex-1 flex-col gap-1.5 after:absolute after:inset-0"
      >
        <span className="truncate font-medium">{conversation.title}</span>
        <span className="text-xs text-muted-foreground">{relativeTime(conversation.updatedAt)}</span>
        {(conversation.emailUsed || conversation.calendarUsed) && (
          <span className="flex flex-wrap gap-1.5">
            {conversation.emailUsed && <Badge variant="secondary">Email integration used</Badge>}
            {conversation.calendarUsed && <Badge variant="secondary">Calendar integration used</Badge>}
          </span>
        )}
      </Link>
      <Button
        variant="ghost"
        size="icon"
        className="relative z-10 -mr-1"
        aria-label={`Delete ${conversation.title}`}
        onClick={onDelete}
      >
        <Trash2 aria-hidden />
      </Button>
    </li>
  );
}
