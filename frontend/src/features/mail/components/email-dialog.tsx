import type { EmailItem } from '@haven/contracts/mail';
import { ImageIcon, Sparkles } from 'lucide-react';
import { useState } from 'react';

import { ActionDialog } from '@/components/actions/action-dialog';
import { Field } from '@/components/actions/field';
import { sendConfirmation, sendEmail } from '@/components/actions/send-email';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';
import { useDraftReply, useEmail } from '../api/digest';
import { MailFrame } from './mail-frame';

/** The address inside `Name <address>`, or the whole header when it is a bare address. */
export const addressOf = (fromFull: string) => /<([^>]+)>/.exec(fromFull)?.[1] ?? fromFull.trim();

/** The reply's subject: the original's with one 'Re: '. */
export const replySubject = (subject: string) => (/^re:/i.test(subject.trim()) ? subject : `Re: ${subject}`);

/** Spec: 'Template' prefills a greeting and a thank-you line addressed to the sender. */
export function templateFor(email: Pick<EmailItem, 'from' | 'subject'>): string {
  const first = email.from.includes('@') ? email.from.split('@')[0]! : email.from.trim().split(/\s+/)[0]!;
  const about = email.subject.trim() ? ` about "${email.subject.trim()}"` : '';
  return `Hi ${first || 'there'},\n\nThank you for your email${about}. \n\nBest regards,`;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

interface EmailDialogProps {
  email: EmailItem | null;
  onClose: () => void;
  /** askBeforeEmails: confirm before sending. */
  confirm: boolean;
}

/**
 * The Email item dialog: the message (sanitised, in a sandboxed frame, remote images held back
 * until asked for) and a reply written by hand, by 'AI Draft' or from the 'Template', saved as a
 * draft or sent into the thread.
 */
export function EmailDialog({ email, onClose, confirm }: EmailDialogProps) {
  const full = useEmail(email?.id);
  const [reply, setReply] = useState('');
  const [showImages, setShowImages] = useState(false);
  const [busy, setBusy] = useState<'draft' | 'send' | null>(null);
  const [asking, setAsking] = useState(false);
  const draft = useDraftReply({
    mutationConfig: {
      onSuccess: (answer) => {
        setReply(answer.draft);
        if (answer.source === 'template')
          toast({
            title: 'Template draft',
            description: 'No AI model is configured, so this reply starts from a template.',
          });
      },
      onError: (error) =>
        toast({
          title: 'Draft Generation Failed',
          description: getErrorMessage(error),
          variant: 'destructive',
        }),
    },
  });
  if (!email) return null;
  const blank = reply.trim() === '';
  const outgoing = {
    to: addressOf(email.fromFull),
    subject: replySubject(email.subject),
    body: reply,
    priority: 'normal' as const,
    threadId: email.threadId,
  };

  async function deliver(asDraft: boolean) {
    setBusy(asDraft ? 'draft' : 'send');
    try {
      await sendEmail(outgoing, asDraft);
      toast({ title: asDraft ? 'Draft saved' : 'Email sent' });
      if (!asDraft) onClose();
    } catch (error) {
      toast({
        title: asDraft ? 'Failed to save draft' : 'Failed to send email',
        description: getErrorMessage(error),
        variant: 'destructive',
      });
    } finally {
      setBusy(null);
    }
  }

  const body = full.data?.body;
  return (
    <ActionDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={email.subject || '(No subject)'}
      actions={
        <>
          <Button variant="outline" disabled={blank || busy !== null} onClick={() => void deliver(true)}>
            {busy === 'draft' ? 'Saving...' : 'Save Draft'}
          </Button>
          <Button
            disabled={blank || busy !== null}
            onClick={() => (confirm ? setAsking(true) : void deliver(false))}
          >
            {busy === 'send' ? 'Sending...' : 'Send Response'}
          </Button>
        </>
      }
      confirmation={{
        asking,
        onAskingChange: setAsking,
        ...sendConfirmation(outgoing),
        onConfirm: () => void deliver(false),
      }}
    >
      <div className="flex min-w-0 flex-col gap-0.5 text-sm">
        <p className="truncate font-medium">{email.fromFull || email.from}</p>
        <p className="text-muted-foreground">{dateTime.format(new Date(email.date))}</p>
      </div>
      {full.isPending ? (
        <Skeleton className="h-56 w-full" />
      ) : body ? (
        <div className="flex flex-col gap-2">
          <MailFrame html={body} showImages={showImages} />
          {full.data?.hasRemoteImages && !showImages ? (
            <Button variant="ghost" size="sm" className="self-start" onClick={() => setShowImages(true)}>
              <ImageIcon aria-hidden />
              Show images
            </Button>
          ) : null}
        </div>
      ) : (
        <p className="rounded-lg border border-border p-3 text-sm whitespace-pre-wrap">{email.snippet}</p>
      )}
      <Field label="Your reply">
        {(id) => <Textarea id={id} rows={6} value={reply} onChange={(e) => setReply(e.target.value)} />}
      </Field>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          size="sm"
          disabled={draft.isPending}
          onClick={() => draft.mutate({ emailId: email.id, threadId: email.threadId })}
        >
          <Sparkles aria-hidden />
          {draft.isPending ? 'Drafting...' : 'AI Draft'}
        </Button>
        <Button variant="secondary" size="sm" onClick={() => setReply(templateFor(email))}>
          Template
        </Button>
      </div>
    </ActionDialog>
  );
}
