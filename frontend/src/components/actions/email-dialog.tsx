import { useState } from 'react';

import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { Field, selectClass } from './field';
import type { OutgoingEmailInput } from './send-email';
import { SendEmailDialog } from './send-email-dialog';
import { useSendEmail } from './use-send-email';

interface EmailDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** With a `threadId` the e-mail answers that thread of the mail account (a digest's nudge). */
  prefill?: { to?: string; cc?: string; subject?: string; body?: string; threadId?: string };
  /** askBeforeEmails: confirm before sending. */
  confirm: boolean;
  /** After a draft was saved or the e-mail sent (the dialog then closes). */
  onDone?: (email: OutgoingEmailInput, mode: 'draft' | 'send') => void;
}

const empty = (prefill: EmailDialogProps['prefill']): OutgoingEmailInput & { cc: string } => ({
  to: prefill?.to ?? '',
  cc: prefill?.cc ?? '',
  subject: prefill?.subject ?? '',
  body: prefill?.body ?? '',
  priority: 'normal',
  ...(prefill?.threadId ? { threadId: prefill.threadId } : {}),
});

/** What the e-mail still needs before it is sent (a draft may be incomplete). */
function missing(email: OutgoingEmailInput, mode: 'draft' | 'send') {
  if (mode === 'draft') return null;
  if (!email.to.trim())
    return { title: 'Recipient required', description: 'Please enter at least one recipient email address' };
  if (!email.subject.trim())
    return { title: 'Subject required', description: 'Please enter a subject for your email' };
  return null;
}

/**
 * 'Draft Email': to, cc, subject, body and priority; saved as a draft, or sent once confirmed. A
 * prefill's thread goes with it, so a nudge lands under the message it follows up on.
 */
export function EmailDialog({ open, onOpenChange, prefill, confirm, onDone }: EmailDialogProps) {
  const [email, setEmail] = useState(() => empty(prefill));
  const [opened, setOpened] = useState(open);
  const sending = useSendEmail({
    confirm,
    toasts: 'plain',
    validate: missing,
    onDone: (sent, mode) => {
      onDone?.(sent, mode);
      onOpenChange(false);
    },
  });
  if (open !== opened) {
    setOpened(open);
    if (open) setEmail(empty(prefill));
  }
  const set = (patch: Partial<OutgoingEmailInput>) => setEmail((e) => ({ ...e, ...patch }));
  const outgoing = { ...email, cc: email.cc || undefined };

  return (
    <SendEmailDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Draft Email"
      sending={sending}
      email={outgoing}
      sendLabel="Send Email"
      canSend
      canDraft={email.body.trim() !== '' || email.subject.trim() !== ''}
    >
      <Field label="To">
        {(id) => (
          <Input
            id={id}
            type="email"
            multiple
            placeholder="name@example.com"
            value={email.to}
            onChange={(e) => set({ to: e.target.value })}
          />
        )}
      </Field>
      <Field label="Cc">
        {(id) => <Input id={id} value={email.cc} onChange={(e) => set({ cc: e.target.value })} />}
      </Field>
      <Field label="Subject">
        {(id) => <Input id={id} value={email.subject} onChange={(e) => set({ subject: e.target.value })} />}
      </Field>
      <Field label="Message">
        {(id) => (
          <Textarea id={id} rows={7} value={email.body} onChange={(e) => set({ body: e.target.value })} />
        )}
      </Field>
      <Field label="Priority">
        {(id) => (
          <select
            id={id}
            className={selectClass}
            value={email.priority}
            onChange={(e) => set({ priority: e.target.value as OutgoingEmailInput['priority'] })}
          >
            <option value="low">Low</option>
            <option value="normal">Normal</option>
            <option value="high">High</option>
          </select>
        )}
      </Field>
    </SendEmailDialog>
  );
}
