import type { Conversation } from '@haven/contracts/assistant';
import { MessageSquarePlus } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';

import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { useConversations } from '../api/get-conversations';
import { useCreateConversation } from '../api/create-conversation';
import { useDeleteConversation } from '../api/delete-conversation';
import { ConversationCard } from './conversation-card';

/** Every conversation, newest activity first, with delete and a new one. */
export function ConversationsList() {
  const navigate = useNavigate();
  const { data, isPending, isError, refetch } = useConversations();
  const [deleting, setDeleting] = useState<Conversation | null>(null);
  const create = useCreateConversation({
    mutationConfig: {
      onSuccess: (c) => navigate(paths.conversation.getHref(c.id)),
      onError: () =>
        toast({
          title: 'Error',
          description: 'Failed to create new conversation. Please try again.',
          variant: 'destructive',
        }),
    },
  });
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
  const start = () => create.mutate({ title: 'New Conversation' });

  return (
    <div className="flex flex-col gap-4">
      <div className="flex justify-end">
        <Button size="sm" onClick={start} disabled={create.isPending}>
          <MessageSquarePlus aria-hidden /> New Conversation
        </Button>
      </div>
      {isPending ? (
        <div className="flex flex-col gap-3">
          <Skeleton className="h-20" />
          <Skeleton className="h-20" />
        </div>
      ) : isError ? (
        <div className="flex flex-col items-center gap-3 py-10 text-center">
          <p className="font-medium">Failed to load conversations</p>
          <Button variant="outline" onClick={() => void refetch()}>
            Try Again
          </Button>
        </div>
      ) : data.length === 0 ? (
        <div className="flex flex-col items-center gap-2 py-10 text-center">
          <p className="font-medium">No conversations yet</p>
          <p className="text-sm text-muted-foreground">
            Start a new conversation with the assistant to get help with your tasks
          </p>
          <Button className="mt-2" onClick={start} disabled={create.isPending}>
            Start a Conversation
          </Button>
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
