import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';
import { ActionDialog } from './action-dialog';
import { Field, selectClass } from './field';
import { sendConfirmation, sendEmail, type OutgoingEmailInput } from './send-email';

interface EmailDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  prefill?: { to?: string; subject?: string; body?: string };
  /** askBeforeEmails: confirm before sending. */
  confirm: boolean;
}

const empty = (prefill: EmailDialogProps['prefill']): Required<Omit<OutgoingEmailInput, 'threadId'>> => ({
  to: prefill?.to ?? '',
  cc: '',
  subject: prefill?.subject ?? '',
  body: prefill?.body ?? '',
  priority: 'normal',
});

/** 'Draft Email': to, cc, subject, body and priority; sent through the mail account on confirmation. */
export function EmailDialog({ open, onOpenChange, prefill, confirm }: EmailDialogProps) {
  const [email, setEmail] = useState(() => empty(prefill));
  const [opened, setOpened] = useState(open);
  const [asking, setAsking] = useState(false);
  const [sending, setSending] = useState(false);
  if (open !== opened) {
    setOpened(open);
    if (open) setEmail(empty(prefill));
  }
  const set = (patch: Partial<OutgoingEmailInput>) => setEmail((e) => ({ ...e, ...patch }));

  async function send() {
    setSending(true);
    try {
      await sendEmail({ ...email, cc: email.cc || undefined });
      toast({ title: 'Email sent' });
      onOpenChange(false);
    } catch (error) {
      toast({ title: 'Failed to send email', description: getErrorMessage(error), variant: 'destructive' });
    } finally {
      setSending(false);
    }
  }

  function submit() {
    if (!email.to.trim()) {
      toast({
        title: 'Recipient required',
        description: 'Please enter at least one recipient email address',
        variant: 'destructive',
      });
      return;
    }
    if (!email.subject.trim()) {
      toast({
        title: 'Subject required',
        description: 'Please enter a subject for your email',
        variant: 'destructive',
      });
      return;
    }
    if (confirm) setAsking(true);
    else void send();
  }

  return (
    <ActionDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Draft Email"
      actions={
        <>
          <Button onClick={submit} disabled={sending}>
            {sending ? 'Sending...' : 'Send Email'}
          </Button>
        </>
      }
      confirmation={{
        asking,
        onAskingChange: setAsking,
        ...sendConfirmation(email),
        onConfirm: () => void send(),
      }}
    >
      <Field label="To">
        {(id) => <Input id={id} value={email.to} onChange={(e) => set({ to: e.target.value })} />}
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
    </ActionDialog>
  );
}
