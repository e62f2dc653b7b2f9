import { mailContract, type SendAnswer } from '@haven/contracts/mail';

import { api, type ApiBody } from '@/lib/api';

/** An e-mail as the dialogs send it (spec 3, Outgoing email). */
export type OutgoingEmailInput = ApiBody<typeof mailContract.sendEmail>;

/** Sends the e-mail, or with `draft` saves it to the mail account's drafts. */
export function sendEmail(email: OutgoingEmailInput, draft = false): Promise<SendAnswer> {
  return api(mailContract.sendEmail, { body: email, query: draft ? { draft: 'true' } : {} });
}

/** The question asked before an e-mail leaves (when the user's `askBeforeEmails` is on). */
export const sendConfirmation = (email: { to: string; subject: string }) => ({
  title: 'Send this email?',
  description: `To ${email.to}: “${email.subject}”. It is sent from your mail account.`,
  confirmLabel: 'Send',
});
