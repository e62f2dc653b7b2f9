import type { EmailDraft } from '@haven/contracts/conversation-rules';
import { useState } from 'react';

import { Field } from '@/components/actions/field';
import { Button } from '@/components/ui/button';
import { SendEmailDialog } from '@/components/actions/send-email-dialog';
import { useSendEmail } from '@/components/actions/use-send-email';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { DraftNotes, type ProposedDraft } from './proposals';

interface DraftEmailDialogProps {
  draft: ProposedDraft | null;
  onClose: () => void;
  /** askBeforeEmails: confirm before sending. */
  confirm: boolean;
}

/**
 * 'Draft Email' from an assistant message: To, Subject and Message; save as a draft or send. A
 * recipient the user may not know (see `recipientNotice`) is not filled in: the dialog names it and
 * the user takes it with 'Use this address', or types another.
 */
export function DraftEmailDialog({ draft, onClose, confirm }: DraftEmailDialogProps) {
  const [email, setEmail] = useState<EmailDraft>(() =>
    draft
      ? { to: draft.notice ? '' : draft.to, subject: draft.subject, body: draft.body }
      : { to: '', subject: '', body: '' },
  );
  const offered = draft?.notice && email.to !== draft.to ? draft : null;
  const complete = email.subject.trim() !== '' && email.body.trim() !== '';
  const sending = useSendEmail({
    confirm,
    toasts: 'conversation',
    validate: ({ subject, body }) =>
      subject.trim() && body.trim()
        ? null
        : {
            title: 'Missing information',
            description: 'Please provide a subject and message body for your email.',
          },
    onDone: onClose,
  });

  return (
    <SendEmailDialog
      open={draft !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Draft Email"
      sending={sending}
      email={email}
      sendLabel="Send Email"
      canSend={complete && email.to.trim() !== ''}
      canDraft={complete}
    >
      {draft && (draft.notice || draft.journalLeftOut) && (
        <div className="flex flex-col gap-2 rounded-lg border border-border bg-muted/60 p-2.5">
          <DraftNotes draft={draft} />
          {offered && (
            <Button
              size="sm"
              variant="outline"
              className="self-start"
              onClick={() => setEmail({ ...email, to: offered.to })}
            >
              Use this address
            </Button>
          )}
        </div>
      )}
      <Field label="To">
        {(id) => (
          <Input id={id} value={email.to} onChange={(e) => setEmail({ ...email, to: e.target.value })} />
        )}
      </Field>
      <Field label="Subject">
        {(id) => (
          <Input
            id={id}
            value={email.subject}
            onChange={(e) => setEmail({ ...email, subject: e.target.value })}
          />
        )}
      </Field>
      <Field label="Message">
        {(id) => (
          <Textarea
            id={id}
            rows={8}
            value={email.body}
            onChange={(e) => setEmail({ ...email, body: e.target.value })}
          />
        )}
      </Field>
    </SendEmailDialog>
  );
}
