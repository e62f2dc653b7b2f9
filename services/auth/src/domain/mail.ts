import type { DbOrTx, Tx } from '@haven/kit/db';
import type { FieldCipher } from '@haven/kit/crypto';
import type { Logger } from '@haven/kit/logger';
import { newEventId } from '@haven/kit/outbox';
import type { Emit } from '@haven/kit/unit-of-work';
import { findMail, insertMail, markMailSent } from '../db/mail.repository';
import type { MailMessage } from '../mail/messages';
import type { MailTransport } from '../mail/transport';
import { MAIL_CONTEXT } from './contexts';
export { MAIL_CONTEXT };

/**
 * Queues a message inside the caller's unit of work: the encrypted message and its `mail.send`
 * event commit together, or not at all. The job carries only the mail id.
 */
export async function queueMail(
  tx: Tx,
  emit: Emit,
  cipher: FieldCipher,
  kind: string,
  message: MailMessage,
  noticeKey?: string,
): Promise<string> {
  const id = newEventId();
  await insertMail(tx, {
    id,
    kind,
    messageEnc: cipher.encrypt(JSON.stringify(message), MAIL_CONTEXT),
    noticeKey,
  });
  await emit('mail.send', { mailId: id });
  return id;
}

/**
 * Sends one stored message. Idempotent: a message already sent (or gone) is skipped, so a retried
 * or replayed job does not mail twice once delivery was recorded.
 */
export async function deliverMail(
  ctx: { db: DbOrTx; cipher: FieldCipher; log: Logger },
  send: MailTransport,
  mailId: string,
): Promise<void> {
  const row = await findMail(ctx.db, mailId);
  if (!row || row.sentAt || !row.messageEnc) {
    ctx.log.info({ mailId }, 'mail already sent or gone; skipping');
    return;
  }
  const message = JSON.parse(ctx.cipher.decrypt(row.messageEnc, MAIL_CONTEXT)) as MailMessage;
  await send(mailId, message);
  await markMailSent(ctx.db, mailId);
  ctx.log.info({ mailId, kind: row.kind }, 'mail sent');
}
