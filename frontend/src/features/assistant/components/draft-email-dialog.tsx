import type { EmailDraft } from '@haven/contracts/conversation-rules';
import { useState } from 'react';

import { ActionDialog } from '@/components/actions/action-dialog';
import { Field } from '@/components/actions/field';
import { sendConfirmation, sendEmail } from '@/components/actions/send-email';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';

interface DraftEmailDialogProps {
  draft: EmailDraft | null;
  onClose: () => void;
  /** askBeforeEmails: confirm before sending. */
  confirm: boolean;
}

/** 'Draft Email' from an assistant message: To, Subject and Message; save as a draft or send. */
export function DraftEmailDialog({ draft, onClose, confirm }: DraftEmailDialogProps) {
  const [email, setEmail] = useState<EmailDraft>(draft ?? { to: '', subject: '', body: '' });
  const [busy, setBusy] = useState<'draft' | 'send' | null>(null);
  const [asking, setAsking] = useState(false);
  const complete = email.subject.trim() !== '' && email.body.trim() !== '';

  async function deliver(asDraft: boolean) {
    if (!complete) {
      toast({
        title: 'Missing information',
        description: 'Please provide a subject and message body for your email.',
        variant: 'destructive',
      });
      return;
    }
    setBusy(asDraft ? 'draft' : 'send');
    try {
      await sendEmail({ to: email.to, subject: email.subject, body: email.body }, asDraft);
      toast(
        asDraft
          ? { title: 'Draft Saved', description: 'Your draft has been saved to Gmail.' }
          : { title: 'Email Sent', description: 'Your email has been sent successfully.' },
      );
      onClose();
    } catch {
      toast(
        asDraft
          ? {
              title: 'Draft Save Failed',
              description: 'Could not save your draft to Gmail. Please try again.',
              variant: 'destructive',
            }
          : {
              title: 'Email Send Failed',
              description: 'Could not send your email. Please try again.',
              variant: 'destructive',
            },
      );
    } finally {
      setBusy(null);
    }
  }

  return (
    <ActionDialog
      open={draft !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Draft Email"
      actions={
        <>
          <Button variant="outline" disabled={busy !== null || !complete} onClick={() => void deliver(true)}>
            {busy === 'draft' ? 'Saving...' : 'Save Draft'}
          </Button>
          <Button
            disabled={busy !== null || !complete || !email.to.trim()}
            onClick={() => (confirm ? setAsking(true) : void deliver(false))}
          >
            {busy === 'send' ? 'Sending...' : 'Send Email'}
          </Button>
        </>
      }
      confirmation={{
        asking,
        onAskingChange: setAsking,
        ...sendConfirmation(email),
        onConfirm: () => void deliver(false),
      }}
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
    </ActionDialog>
  );
}
