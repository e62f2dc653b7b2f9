import { titleFromText } from '@haven/contracts/conversation-rules';
import { useNavigate } from 'react-router-dom';

import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { useCreateConversation } from '../api/create-conversation';

/**
 * Starts a conversation with its first message and opens it (the Assist chat card, a new
 * conversation). A conversation exists on the server only once it has a message, so none is ever
 * left empty. Resolves true once sent; a failure is told in a toast and resolves false.
 */
export function useStartConversation() {
  const navigate = useNavigate();
  const create = useCreateConversation();

  async function start(content: string, { voice = false, replace = false } = {}): Promise<boolean> {
    const trimmed = content.trim();
    if (!trimmed || create.isPending) return false;
    try {
      const conversation = await create.mutateAsync({
        title: titleFromText(trimmed),
        content: trimmed,
        isVoice: voice,
        clientDate: new Date().toISOString(),
        timezoneOffset: new Date().getTimezoneOffset(),
      });
      navigate(paths.conversation.getHref(conversation.id), { replace });
      return true;
    } catch {
      toast({
        title: 'Error',
        description: voice
          ? 'Failed to process voice message. Please try again.'
          : 'Failed to send message. Please try again.',
        variant: 'destructive',
      });
      return false;
    }
  }

  return { start, isPending: create.isPending };
}
