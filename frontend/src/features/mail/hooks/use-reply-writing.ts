import type { EmailItem } from '@haven/contracts/mail';
import { templateReply } from '@haven/contracts/reply';
import { useEffect, useState } from 'react';

import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';
import { useDraftReply } from '../api/digest';

/** A way of writing the reply for the user: 'AI Draft' or the 'Template'. */
export type ReplyWay = 'ai' | 'template';

/**
 * The reply of the e-mail dialog: typed, drafted by the model (or the server's template when no
 * model is configured) or written from the template; a typed reply is replaced only once the user
 * agrees. With `prefill` (a step of the reply queue) a draft is asked for on opening.
 */
export function useReplyWriting(email: EmailItem | null, prefill: boolean) {
  const [reply, setReply] = useState('');
  /** The way of writing a new reply waiting for the user's agreement to replace the typed one. */
  const [replacing, setReplacing] = useState<ReplyWay | null>(null);
  /** The reply is the server's template, not a model's: said beside it for as long as it is there. */
  const [fromTemplate, setFromTemplate] = useState(false);
  const draft = useDraftReply({
    mutationConfig: {
      onSuccess: (drafted) => {
        setReply(drafted.draft);
        setFromTemplate(drafted.source === 'template');
      },
      onError: (error) =>
        toast({
          title: 'Draft Generation Failed',
          description: getErrorMessage(error),
          variant: 'destructive',
        }),
    },
  });
  // A step of the reply queue opens with its draft under way ('AI Draft' shows it busy).
  const { mutate: requestDraft } = draft;
  const [emailId, threadId] = [email?.id, email?.threadId];
  useEffect(() => {
    if (prefill && emailId && threadId) requestDraft({ emailId, threadId });
  }, [prefill, emailId, threadId, requestDraft]);

  function write(way: ReplyWay) {
    if (!email) return;
    if (way === 'ai') draft.mutate({ emailId: email.id, threadId: email.threadId });
    else {
      setReply(templateReply(email.from, email.subject));
      setFromTemplate(false);
    }
  }

  return {
    reply,
    setReply,
    fromTemplate,
    /** A draft is on its way. */
    drafting: draft.isPending,
    write,
    replacing,
    setReplacing,
  };
}
