import type { EmailDraft } from '@haven/contracts/conversation-rules';
import { useState } from 'react';

import { Field } from '@/components/actions/field';
import { SendEmailDialog } from '@/components/actions/send-email-dialog';
import { useSendEmail } from '@/components/actions/use-send-email';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';

interface DraftEmailDialogProps {
  draft: EmailDraft | null;
  onClose: () => void;
  /** askBeforeEmails: confirm before sending. */
  confirm: boolean;
}

/** 'Draft Email' from an assistant message: To, Subject and Message; save as a draft or send. */
export function DraftEmailDialog({ draft, onClose, confirm }: DraftEmailDialogProps) {
  const [email, setEmail] = useState<EmailDraft>(draft ?? { to: '', subject: '', body: '' });
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
