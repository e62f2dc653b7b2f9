import { useState, type ReactNode } from 'react';

import type { ToastInput } from '@/hooks/use-toast';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { Field, selectClass } from './field';
import type { OutgoingEmailInput } from './send-email';
import { SendEmailDialog } from './send-email-dialog';
import { useSendEmail, type SendToasts } from './use-send-email';

/** What the dialog starts with. With a `threadId` the e-mail answers that thread (a digest's nudge). */
export interface ComposePrefill {
  to?: string;
  cc?: string;
  subject?: string;
  body?: string;
  threadId?: string;
}

type Mode = 'draft' | 'send';
type Composed = OutgoingEmailInput & { cc: string };

/**
 * The two places 'Draft Email' opens from, as the spec gives them (section 8): a suggestion or a
 * digest's nudge ('action': To, Cc, Subject, Message and Priority; a recipient and a subject are
 * needed to send), or an assistant message ('conversation': To, Subject and Message, both of the
 * last needed; the conversation's toasts).
 */
interface Kind {
  toasts: SendToasts;
  extraFields: boolean;
  missing(email: OutgoingEmailInput, mode: Mode): ToastInput | null;
  canSend(email: OutgoingEmailInput): boolean;
  canDraft(email: OutgoingEmailInput): boolean;
}

const filled = (text: string) => text.trim() !== '';

const KINDS: Record<'action' | 'conversation', Kind> = {
  action: {
    toasts: 'plain',
    extraFields: true,
    missing(email, mode) {
      if (mode === 'draft') return null;
      if (!filled(email.to))
        return {
          title: 'Recipient required',
          description: 'Please enter at least one recipient email address',
        };
      if (!filled(email.subject))
        return { title: 'Subject required', description: 'Please enter a subject for your email' };
      return null;
    },
    // Pressing it with a field missing says which (above), rather than a button that does nothing.
    canSend: () => true,
    canDraft: (email) => filled(email.body) || filled(email.subject),
  },
  conversation: {
    toasts: 'conversation',
    extraFields: false,
    missing: (email) =>
      filled(email.subject) && filled(email.body)
        ? null
        : {
            title: 'Missing information',
            description: 'Please provide a subject and message body for your email.',
          },
    canSend: (email) => filled(email.subject) && filled(email.body) && filled(email.to),
    canDraft: (email) => filled(email.subject) && filled(email.body),
  },
};

const startFrom = (prefill: ComposePrefill | undefined): Composed => ({
  to: prefill?.to ?? '',
  cc: prefill?.cc ?? '',
  subject: prefill?.subject ?? '',
  body: prefill?.body ?? '',
  priority: 'normal',
  ...(prefill?.threadId ? { threadId: prefill.threadId } : {}),
});

interface ComposeEmailDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  kind: keyof typeof KINDS;
  prefill?: ComposePrefill;
  /** askBeforeEmails: confirm before sending. */
  confirm: boolean;
  /** After a draft was saved or the e-mail sent (the dialog then closes). */
  onDone?: (email: OutgoingEmailInput, mode: Mode) => void;
  /** Shown above the fields, given the fields and a way to fill the recipient (the assistant's notes). */
  notes?: (email: OutgoingEmailInput, takeAddress: (to: string) => void) => ReactNode;
}

/**
 * 'Draft Email': the one dialog for writing a new e-mail, saved as a draft or sent once confirmed.
 * A prefill's thread goes with it, so a nudge lands under the message it follows up on. Opening it
 * again starts from the prefill again.
 */
export function ComposeEmailDialog({
  open,
  onOpenChange,
  kind,
  prefill,
  confirm,
  onDone,
  notes,
}: ComposeEmailDialogProps) {
  const rules = KINDS[kind];
  const [email, setEmail] = useState(() => startFrom(prefill));
  const [opened, setOpened] = useState(open);
  const sending = useSendEmail({
    confirm,
    toasts: rules.toasts,
    validate: rules.missing,
    onDone: (sent, mode) => {
      onDone?.(sent, mode);
      onOpenChange(false);
    },
  });
  if (open !== opened) {
    setOpened(open);
    if (open) setEmail(startFrom(prefill));
  }
  const set = (patch: Partial<Composed>) => setEmail((e) => ({ ...e, ...patch }));
  const outgoing: OutgoingEmailInput = rules.extraFields
    ? { ...email, cc: email.cc || undefined }
    : { to: email.to, subject: email.subject, body: email.body, threadId: email.threadId };

  return (
    <SendEmailDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Draft Email"
      sending={sending}
      email={outgoing}
      sendLabel="Send Email"
      canSend={rules.canSend(outgoing)}
      canDraft={rules.canDraft(outgoing)}
    >
      {notes?.(outgoing, (to) => set({ to }))}
      <ComposeFields email={email} set={set} extra={rules.extraFields} />
    </SendEmailDialog>
  );
}

function ComposeFields({
  email,
  set,
  extra,
}: {
  email: Composed;
  set: (patch: Partial<Composed>) => void;
  extra: boolean;
}) {
  return (
    <>
      <Field label="To">
        {(id) => (
          <Input
            id={id}
            type={extra ? 'email' : 'text'}
            multiple={extra || undefined}
            placeholder={extra ? 'name@example.com' : undefined}
            value={email.to}
            onChange={(e) => set({ to: e.target.value })}
          />
        )}
      </Field>
      {extra && (
        <Field label="Cc">
          {(id) => <Input id={id} value={email.cc} onChange={(e) => set({ cc: e.target.value })} />}
        </Field>
      )}
      <Field label="Subject">
        {(id) => <Input id={id} value={email.subject} onChange={(e) => set({ subject: e.target.value })} />}
      </Field>
      <Field label="Message">
        {(id) => (
          <Textarea id={id} rows={8} value={email.body} onChange={(e) => set({ body: e.target.value })} />
        )}
      </Field>
      {extra && <PriorityField value={email.priority} onChange={(priority) => set({ priority })} />}
    </>
  );
}

function PriorityField({
  value,
  onChange,
}: {
  value: OutgoingEmailInput['priority'];
  onChange: (priority: OutgoingEmailInput['priority']) => void;
}) {
  return (
    <Field label="Priority">
      {(id) => (
        <select
          id={id}
          className={selectClass}
          value={value}
          onChange={(e) => onChange(e.target.value as OutgoingEmailInput['priority'])}
        >
          <option value="low">Low</option>
          <option value="normal">Normal</option>
          <option value="high">High</option>
        </select>
      )}
    </Field>
  );
}
