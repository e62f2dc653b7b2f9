import type { DbOrTx } from '@haven/kit/db';
import type { FieldCipher } from '@haven/kit/crypto';
import { newEventId, writeOutbox } from '@haven/kit/outbox';
import { insertMail } from '../db/mail.repository';
import { outbox } from '../db/schema';
import type { MailMessage } from '../mail/messages';

export const MAIL_CONTEXT = 'auth.outgoing_mail';

/**
 * Queues a message inside the caller's transaction: the encrypted message and its `mail.send`
 * event commit together, or not at all. The job carries only the mail id.
 */
export async function queueMail(
  tx: DbOrTx,
  cipher: FieldCipher,
  kind: string,
  message: MailMessage,
): Promise<string> {
  const id = newEventId();
  await insertMail(tx, { id, kind, messageEnc: cipher.encrypt(JSON.stringify(message), MAIL_CONTEXT) });
  await writeOutbox(tx, outbox, 'mail.send', { mailId: id });
  return id;
}
