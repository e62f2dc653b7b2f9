import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';

import { toast, type ToastInput } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';
import { accountProblemOf, type AccountProblem } from './account-notice';
import { sendConfirmation, sendEmail, type OutgoingEmailInput } from './send-email';

/** Which of the spec's toast sets a dialog uses (spec 8, Email and calendar). */
export type SendToasts = 'conversation' | 'plain';

const TOASTS: Record<
  SendToasts,
  Record<'draft' | 'send', { done: ToastInput; failed: (error: unknown) => ToastInput }>
> = {
  // The conversation's 'Draft Email' dialog.
  conversation: {
    draft: {
      done: { title: 'Draft Saved', description: 'Your draft has been saved to Gmail.' },
      failed: () => ({
        title: 'Draft Save Failed',
        description: 'Could not save your draft to Gmail. Please try again.',
      }),
    },
    send: {
      done: { title: 'Email Sent', description: 'Your email has been sent successfully.' },
      failed: () => ({
        title: 'Email Send Failed',
        description: 'Could not send your email. Please try again.',
      }),
    },
  },
  // The suggestion's and the digest's dialogs.
  plain: {
    draft: {
      done: { title: 'Draft saved' },
      failed: (error) => ({ title: 'Failed to save draft', description: getErrorMessage(error) }),
    },
    send: {
      done: { title: 'Email sent' },
      failed: (error) => ({ title: 'Failed to send email', description: getErrorMessage(error) }),
    },
  },
};

/** The failure toast when the mail account is the cause: retrying cannot help, connecting can. */
const ACCOUNT_TOASTS: Record<AccountProblem, string> = {
  not_connected: 'Gmail is not connected.',
  reconnect_required: 'Your Gmail connection needs attention.',
};

interface UseSendEmailOptions {
  /** askBeforeEmails: ask before an e-mail leaves. */
  confirm: boolean;
  toasts: SendToasts;
  /** After a draft is saved or an e-mail sent (the dialogs close). */
  onDone: (email: OutgoingEmailInput, mode: 'draft' | 'send') => void;
  /** A toast saying what is missing, or null when the e-mail may go; checked before anything else. */
  validate?: (email: OutgoingEmailInput, mode: 'draft' | 'send') => ToastInput | null;
}

/**
 * Saving an e-mail as a draft or sending it, for every dialog that does: the confirmation asked
 * before sending, which of the two is busy, the spec's toasts, and the mail account's problem when
 * it is the cause (the dialog then offers to connect it).
 */
export function useSendEmail({ confirm, toasts, onDone, validate }: UseSendEmailOptions) {
  const [asking, setAsking] = useState<OutgoingEmailInput | null>(null);
  const [problem, setProblem] = useState<AccountProblem | null>(null);
  const mutation = useMutation({
    mutationFn: ({ email, mode }: { email: OutgoingEmailInput; mode: 'draft' | 'send' }) =>
      sendEmail(email, mode === 'draft'),
    onSuccess: (_answer, { email, mode }) => {
      setProblem(null);
      toast(TOASTS[toasts][mode].done);
      onDone(email, mode);
    },
    onError: (error, { mode }) => {
      const cause = accountProblemOf(error);
      setProblem(cause);
      const failed = TOASTS[toasts][mode].failed(error);
      toast({
        ...failed,
        ...(cause ? { description: ACCOUNT_TOASTS[cause] } : {}),
        variant: 'destructive',
      });
    },
  });

  function run(email: OutgoingEmailInput, mode: 'draft' | 'send') {
    if (mutation.isPending) return;
    const missing = validate?.(email, mode);
    if (missing) return toast({ ...missing, variant: 'destructive' });
    if (mode === 'send' && confirm) return setAsking(email);
    mutation.mutate({ email, mode });
  }

  return {
    /** Saves `email` to the mail account's drafts. */
    saveDraft: (email: OutgoingEmailInput) => run(email, 'draft'),
    /** Sends `email`, once confirmed when the user asks to be asked. */
    send: (email: OutgoingEmailInput) => run(email, 'send'),
    /** What is under way, for the buttons' labels. */
    busy: mutation.isPending ? mutation.variables.mode : null,
    /** The mail account's problem the last attempt met. */
    problem,
    /** For `ActionDialog`'s confirmation. */
    confirmation: {
      asking: asking !== null,
      onAskingChange: (open: boolean) => !open && setAsking(null),
      ...sendConfirmation(asking ?? { to: '', subject: '' }),
      onConfirm: () => asking && mutation.mutate({ email: asking, mode: 'send' }),
    },
  };
}
export type SendEmailState = ReturnType<typeof useSendEmail>;
