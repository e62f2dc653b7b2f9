import { mailContract, type SendAnswer } from '@haven/contracts/mail';

import { api, type ApiBody } from '@/lib/api';

/** An e-mail as the dialogs send it (spec 3, Outgoing email). */
export type OutgoingEmailInput = ApiBody<typeof mailContract.sendEmail>;

/** Sends the e-mail, or with `draft` saves it to the mail account's drafts. */
export function sendEmail(email: OutgoingEmailInput, draft = false): Promise<SendAnswer> {
  return api(mailContract.sendEmail, { body: email, query: draft ? { draft: 'true' } : {} });
}
