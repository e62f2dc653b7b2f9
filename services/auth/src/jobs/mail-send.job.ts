import { defineJob } from '@haven/kit/queue';
import type { ServiceDeps } from '@haven/kit/service';
import { findMail, markMailSent } from '../db/mail.repository';
import { MAIL_CONTEXT } from '../domain/mail';
import type { MailMessage } from '../mail/messages';
import type { MailTransport } from '../mail/transport';

/**
 * Sends one stored message. Idempotent: a message already sent (or gone) is skipped, so a retried
 * or replayed job does not mail twice once delivery was recorded.
 */
export function mailSendJob({ db, cipher }: ServiceDeps, send: MailTransport) {
  return defineJob({
    queue: 'mail.send',
    concurrency: 4,
    async handle({ mailId }, { log }) {
      const row = await findMail(db, mailId);
      if (!row || row.sentAt || !row.messageEnc) {
        log.info({ mailId }, 'mail already sent or gone; skipping');
        return;
      }
      const message = JSON.parse(cipher.decrypt(row.messageEnc, MAIL_CONTEXT)) as MailMessage;
      await send(mailId, message);
      await markMailSent(db, mailId);
      log.info({ mailId, kind: row.kind }, 'mail sent');
    },
    async onFailed({ mailId }, error, { log }) {
      log.error({ mailId, err: error.message }, 'mail could not be delivered after every attempt');
    },
  });
}
