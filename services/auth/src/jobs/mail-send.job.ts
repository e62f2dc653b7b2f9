import { defineJob } from '@haven/kit/queue';
import type { Auth } from '../domain/auth';

/** Delivers one stored e-mail (idempotent: see `deliverMail`). */
export function mailSendJob(auth: Auth) {
  return defineJob({
    queue: 'mail.send',
    concurrency: 4,
    handle: ({ mailId }) => auth.deliverMail(mailId),
    async onFailed({ mailId }, error, { log }) {
      log.error({ mailId, err: error }, 'mail could not be delivered after every attempt');
    },
  });
}
