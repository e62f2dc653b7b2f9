import type { Conversation } from '@haven/contracts/assistant';
import { MessageSquarePlus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';

import { buttonVariants } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { QueryError } from '@/components/ui/query-error';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { cn } from '@/lib/utils';
import { useConversations } from '../api/get-conversations';
import { useDeleteConversation } from '../api/delete-conversation';
import { ConversationCard } from './conversation-card';

/**
 * Every conversation, newest activity first, with delete and a new one. A new conversation opens
 * empty and is created by its first message, so none is left empty in this list.
 */
export function ConversationsList() {
  const { data, isPending, isError, refetch, isFetching } = useConversations();
  const [deleting, setDeleting] = useState<Conversation | null>(null);
  const remove = useDeleteConversation({
    mutationConfig: {
      onSuccess: () =>
        toast({
          title: 'Conversation deleted',
          description: 'The conversation has been successfully removed',
        }),
      onError: () =>
        toast({
          title: 'Error',
          description: 'Failed to delete the conversation. Please try again.',
          variant: 'destructive',
        }),
    },
  });

  return (
    <div className="flex flex-col gap-4">
      <div className="flex justify-end">
        <Link to={paths.newConversation.getHref()} className={buttonVariants({ size: 'sm' })}>
          <MessageSquarePlus aria-hidden /> New Conversation
        </Link>
      </div>
      {isPending ? (
        <div className="flex flex-col gap-3">
          <Skeleton className="h-20" />
          <Skeleton className="h-20" />
        </div>
      ) : isError ? (
        <QueryError message="Failed to load conversations" onRetry={refetch} retrying={isFetching} />
      ) : data.length === 0 ? (
        <div className="flex flex-col items-center gap-2 py-10 text-center">
          <p className="font-medium">No conversations yet</p>
          <p className="text-sm text-muted-foreground">
            Start a new conversation with the assistant to get help with your tasks
          </p>
          <Link to={paths.newConversation.getHref()} className={cn(buttonVariants(), 'mt-2')}>
            Start a Conversation
          </Link>
        </div>
      ) : (
        <ul className="flex flex-col gap-3">
          {data.map((c) => (
            <ConversationCard key={c.id} conversation={c} onDelete={() => setDeleting(c)} />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete Conversation"
        description="Are you sure you want to delete this conversation? This action cannot be undone."
        confirmLabel="Delete"
        destructive
        onConfirm={() => deleting && remove.mutate(deleting.id)}
      />
    </div>
  );
}
