import { integrationsContract } from '@haven/contracts/integrations';
import { workspaceContract, type NotionPageDraft } from '@haven/contracts/workspace';
import { useMutation, useQuery } from '@tanstack/react-query';
import { BookmarkPlus } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { api, getErrorMessage } from '@/lib/api';
import { cn } from '@/lib/utils';

/** Whether Notion is connected (shares the Integrations screen's cached list). */
function useNotionConnected(): boolean {
  const list = useQuery({
    queryKey: ['integrations'],
    queryFn: () => api(integrationsContract.list, { noCache: true }),
    staleTime: 60_000,
  });
  return list.data?.some((i) => i.provider === 'notion' && i.connected) ?? false;
}

/**
 * 'Save to Notion' for an insight or a conversation: shown only while Notion is connected; the page
 * goes under the page chosen on the Notion integration page.
 */
export function SaveToNotionButton({
  page,
  className,
}: {
  /** Built when pressed, so it holds what is on screen then. */
  page: () => NotionPageDraft;
  className?: string;
}) {
  const connected = useNotionConnected();
  const save = useMutation({
    mutationFn: () => api(workspaceContract.saveToNotion, { body: page() }),
    onSuccess: () => toast({ title: 'Saved to Notion' }),
    onError: (error) =>
      toast({
        title: 'Failed to save to Notion',
        description: getErrorMessage(error),
        variant: 'destructive',
      }),
  });
  if (!connected) return null;
  return (
    <Button
      variant="outline"
      size="sm"
      className={cn(className)}
      disabled={save.isPending}
      onClick={() => save.mutate()}
    >
      <BookmarkPlus aria-hidden />
      {save.isPending ? 'Saving...' : 'Save to Notion'}
    </Button>
  );
}
