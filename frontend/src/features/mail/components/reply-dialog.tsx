import type { EmailItem } from '@haven/contracts/mail';
import { addressOf, replySubject } from '@haven/contracts/reply';
import type { UseQueryResult } from '@tanstack/react-query';
import { ImageIcon, SkipForward, Sparkles } from 'lucide-react';
import { useState } from 'react';

import { Field } from '@/components/actions/field';
import { SendEmailDialog } from '@/components/actions/send-email-dialog';
import { useSendEmail } from '@/components/actions/use-send-email';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { formatDateTime } from '@/lib/format-date';
import { useEmail, useMarkReplied } from '../api/digest';
import type { ReplyQueueStep } from '../hooks/use-reply-queue';
import { useReplyWriting, type ReplyWay } from '../hooks/use-reply-writing';
import { MailFrame } from './mail-frame';

interface ReplyDialogProps {
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
export function ReplyDialog({ email, onClose, onDone = onClose, confirm, queue }: ReplyDialogProps) {
  const full = useEmail(email?.id);
  const [showImages, setShowImages] = useState(false);
  const markReplied = useMarkReplied();
  const sending = useSendEmail({
    confirm,
    toasts: 'plain',
    onDone: (sent, mode) => {
      if (mode === 'send' && sent.threadId) markReplied(sent.threadId);
      onDone(mode);
    },
  });
  const writing = useReplyWriting(email, queue !== undefined);
  const { reply, write, replacing, setReplacing } = writing;

  if (!email) return null;
  const blank = reply.trim() === '';
  const outgoing = {
    to: addressOf(email.fromFull),
    subject: replySubject(email.subject),
    body: reply,
    priority: 'normal' as const,
    threadId: email.threadId,
  };
  /** Writes the reply that way, or asks first when it would replace a typed one. */
  const writeOrAsk = (way: ReplyWay) => (blank ? write(way) : setReplacing(way));

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
        {queue ? <QueueStepBar queue={queue} sendBusy={sending.busy !== null} /> : null}
        <EmailMessage
          email={email}
          full={full}
          showImages={showImages}
          onShowImages={() => setShowImages(true)}
        />
        <ReplyField
          reply={reply}
          onChange={writing.setReply}
          drafting={writing.drafting}
          fromTemplate={writing.fromTemplate && !blank}
        />
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            size="sm"
            aria-disabled={writing.drafting || undefined}
            onClick={() => !writing.drafting && writeOrAsk('ai')}
          >
            <Sparkles aria-hidden />
            {writing.drafting ? 'Drafting...' : 'AI Draft'}
          </Button>
          <Button variant="secondary" size="sm" onClick={() => writeOrAsk('template')}>
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

/** The reply queue's step: its place in the queue, and 'Skip'. */
function QueueStepBar({ queue, sendBusy }: { queue: ReplyQueueStep; sendBusy: boolean }) {
  return (
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
        aria-disabled={sendBusy || undefined}
        onClick={() => !sendBusy && queue.skip()}
      >
        Skip
        <SkipForward aria-hidden />
      </Button>
    </div>
  );
}

interface EmailMessageProps {
  email: EmailItem;
  /** The e-mail with its sanitised body. */
  full: UseQueryResult<EmailItem>;
  showImages: boolean;
  onShowImages: () => void;
}

/** Who sent the e-mail and when, and its body (or its snippet when there is no body). */
function EmailMessage({ email, full, showImages, onShowImages }: EmailMessageProps) {
  const body = full.data?.body;
  return (
    <>
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
            <Button variant="ghost" size="sm" className="self-start" onClick={onShowImages}>
              <ImageIcon aria-hidden />
              Show images
            </Button>
          ) : null}
        </div>
      ) : (
        <p className="rounded-lg border border-border p-3 text-sm whitespace-pre-wrap">{email.snippet}</p>
      )}
    </>
  );
}

interface ReplyFieldProps {
  reply: string;
  onChange: (reply: string) => void;
  drafting: boolean;
  /** The reply shown is the server's template (said under it). */
  fromTemplate: boolean;
}

/** 'Your reply', read-only while a draft is on its way. */
function ReplyField({ reply, onChange, drafting, fromTemplate }: ReplyFieldProps) {
  return (
    <Field label="Your reply">
      {(id) => (
        <>
          <Textarea
            id={id}
            // Grows with the reply (a template's sign-off stays in view), up to half a phone's height.
            className="field-sizing-content min-h-36 max-h-[45dvh]"
            value={reply}
            // Typing while a draft is on its way would be lost when it lands.
            readOnly={drafting}
            aria-busy={drafting || undefined}
            placeholder={drafting ? 'Drafting...' : undefined}
            aria-describedby={fromTemplate ? `${id}-source` : undefined}
            onChange={(e) => onChange(e.target.value)}
          />
          {fromTemplate ? (
            <p id={`${id}-source`} className="text-xs text-muted-foreground">
              <span className="font-medium text-foreground">Template draft.</span> No AI model is configured,
              so this reply starts from a template.
            </p>
          ) : null}
        </>
      )}
    </Field>
  );
}
