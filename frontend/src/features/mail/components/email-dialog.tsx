import type { EmailItem } from '@haven/contracts/mail';
import { ImageIcon, SkipForward, Sparkles } from 'lucide-react';
import { useEffect, useState } from 'react';

import { Field } from '@/components/actions/field';
import { SendEmailDialog } from '@/components/actions/send-email-dialog';
import { useSendEmail } from '@/components/actions/use-send-email';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/format-date';
import { useDraftReply, useEmail, useMarkReplied } from '../api/digest';
import type { ReplyQueueStep } from '../hooks/use-reply-queue';
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

interface EmailDialogProps {
  email: EmailItem | null;
  /** Cancel, the close button or Escape. */
  onClose: () => void;
  /** After the reply was saved as a draft or sent (by default the dialog closes). */
  onDone?: (mode: 'draft' | 'send') => void;
  /** askBeforeEmails: confirm before sending. */
  confirm: boolean;
  /** Shown as a step of the reply queue: its place, 'Skip', and the reply drafted on opening. */
  queue?: ReplyQueueStep;
}

/**
 * The Email item dialog: the message (sanitised, in a sandboxed frame, remote images held back
 * until asked for) and a reply written by hand, by 'AI Draft' or from the 'Template', saved as a
 * draft or sent into the thread. A typed reply is replaced only once the user agrees. Nothing is
 * sent but by 'Send Response'.
 */
export function EmailDialog({ email, onClose, onDone = onClose, confirm, queue }: EmailDialogProps) {
  const full = useEmail(email?.id);
  const [reply, setReply] = useState('');
  const [showImages, setShowImages] = useState(false);
  /** The way of writing a new reply waiting for the user's agreement to replace the typed one. */
  const [replacing, setReplacing] = useState<'ai' | 'template' | null>(null);
  /** The reply is the server's template, not a model's: said beside it for as long as it is there. */
  const [fromTemplate, setFromTemplate] = useState(false);
  const markReplied = useMarkReplied();
  const sending = useSendEmail({
    confirm,
    toasts: 'plain',
    onDone: (sent, mode) => {
      if (mode === 'send' && sent.threadId) markReplied(sent.threadId);
      onDone(mode);
    },
  });
  const draft = useDraftReply({
    mutationConfig: {
      onSuccess: (answer) => {
        setReply(answer.draft);
        setFromTemplate(answer.source === 'template');
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
  const prefill = queue !== undefined;
  const [emailId, threadId] = [email?.id, email?.threadId];
  useEffect(() => {
    if (prefill && emailId && threadId) requestDraft({ emailId, threadId });
  }, [prefill, emailId, threadId, requestDraft]);

  if (!email) return null;
  const blank = reply.trim() === '';
  const outgoing = {
    to: addressOf(email.fromFull),
    subject: replySubject(email.subject),
    body: reply,
    priority: 'normal' as const,
    threadId: email.threadId,
  };

  function write(way: 'ai' | 'template') {
    if (!email) return;
    if (way === 'ai') draft.mutate({ emailId: email.id, threadId: email.threadId });
    else {
      setReply(templateFor(email));
      setFromTemplate(false);
    }
  }

  const body = full.data?.body;
  return (
    <>
      <SendEmailDialog
        open
        onOpenChange={(open) => !open && onClose()}
        title={email.subject || '(No subject)'}
        sending={sending}
        email={outgoing}
        sendLabel="Send Response"
        canSend={!blank}
        canDraft={!blank}
      >
        {queue ? (
          <div className="-mt-1 flex items-center justify-between gap-2">
            <p className="text-sm text-muted-foreground">
              Reply queue{' '}
              <span className="font-medium text-foreground tabular-nums">
                {queue.position} of {queue.total}
              </span>
            </p>
            {/* Not while a reply is on its way: its success moves the queue on by itself. */}
            <Button
              variant="ghost"
              size="sm"
              aria-disabled={sending.busy !== null || undefined}
              onClick={() => sending.busy === null && queue.skip()}
            >
              Skip
              <SkipForward aria-hidden />
            </Button>
          </div>
        ) : null}
        <div className="flex min-w-0 flex-col gap-0.5 text-sm">
          <p className="truncate font-medium">{email.fromFull || email.from}</p>
          <p className="text-muted-foreground">{formatDateTime(new Date(email.date))}</p>
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
          {(id) => (
            <>
              <Textarea
                id={id}
                // Grows with the reply (a template's sign-off stays in view), up to half a phone's height.
                className="field-sizing-content min-h-36 max-h-[45dvh]"
                value={reply}
                // Typing while a draft is on its way would be lost when it lands.
                readOnly={draft.isPending}
                aria-busy={draft.isPending || undefined}
                placeholder={draft.isPending ? 'Drafting...' : undefined}
                aria-describedby={fromTemplate && !blank ? `${id}-source` : undefined}
                onChange={(e) => setReply(e.target.value)}
              />
              {fromTemplate && !blank ? (
                <p id={`${id}-source`} className="text-xs text-muted-foreground">
                  <span className="font-medium text-foreground">Template draft.</span> No AI model is
                  configured, so this reply starts from a template.
                </p>
              ) : null}
            </>
          )}
        </Field>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            size="sm"
            aria-disabled={draft.isPending || undefined}
            onClick={() => !draft.isPending && (blank ? write('ai') : setReplacing('ai'))}
          >
            <Sparkles aria-hidden />
            {draft.isPending ? 'Drafting...' : 'AI Draft'}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => (blank ? write('template') : setReplacing('template'))}
          >
            Template
          </Button>
        </div>
      </SendEmailDialog>
      <ConfirmDialog
        open={replacing !== null}
        onOpenChange={(open) => !open && setReplacing(null)}
        title="Replace your reply?"
        description={
          replacing === 'ai'
            ? 'AI Draft writes a new reply in place of the one you typed.'
            : 'The template takes the place of the reply you typed.'
        }
        confirmLabel="Replace"
        onConfirm={() => replacing && write(replacing)}
      />
    </>
  );
}
