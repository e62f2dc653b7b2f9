import type { FieldCipher } from '@haven/kit/crypto';
import type { MailMessageInsert } from '../../db/mail-messages.repository';
import { mailContext } from '../contexts';
import type { CachedMail } from './cached-mail';
import type { MailAccount } from './mail-account';
import type { ParsedMessage } from './message';

/**
 * The cache's rows for the inbox's messages among `messages` (the others are left out): what the
 * lists show encrypted as `CachedMail`, the body apart; `needsReply` is set afterwards.
 */
export function inboxRows(
  cipher: FieldCipher,
  mailbox: Pick<MailAccount, 'integrationId' | 'userId'>,
  messages: ParsedMessage[],
): MailMessageInsert[] {
  return messages
    .filter((m) => m.labelIds.includes('INBOX'))
    .map((m) => ({
      integrationId: mailbox.integrationId,
      userId: mailbox.userId,
      messageId: m.messageId,
      threadId: m.threadId,
      receivedAt: m.receivedAt,
      needsReply: false,
      dataEnc: cipher.encrypt(
        JSON.stringify({
          from: m.from,
          fromFull: m.fromFull,
          subject: m.subject,
          snippet: m.snippet,
          messageIdHeader: m.messageIdHeader,
          references: m.references,
          hasRemoteImages: m.body?.hasRemoteImages,
        } satisfies CachedMail),
        mailContext(mailbox.userId),
      ),
      bodyEnc: m.body ? cipher.encrypt(m.body.html, mailContext(mailbox.userId)) : null,
    }));
}
