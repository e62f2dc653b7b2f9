import MailComposer from 'nodemailer/lib/mail-composer';
import type { EmailPriority } from '@haven/contracts/mail';

export interface OutgoingMessage {
  from?: string;
  to: string;
  cc?: string;
  subject: string;
  body: string;
  priority: EmailPriority;
  /** The message this one answers: its Message-ID and the thread's References. */
  inReplyTo?: string;
  references?: string;
}

/** How mail clients read a message's priority (Outlook, Apple Mail and Gmail each look at one). */
const PRIORITY_HEADERS: Record<EmailPriority, Record<string, string>> = {
  high: { 'X-Priority': '1 (Highest)', 'X-MSMail-Priority': 'High', Importance: 'High' },
  normal: {},
  low: { 'X-Priority': '5 (Lowest)', 'X-MSMail-Priority': 'Low', Importance: 'Low' },
};

/**
 * The RFC 5322 message, built by nodemailer's composer (encoded non-ASCII headers, quoted-printable
 * body, Importance/X-Priority, and In-Reply-To/References when it answers a message).
 */
export async function composeRaw(message: OutgoingMessage): Promise<Buffer> {
  const mail = new MailComposer({
    from: message.from,
    to: message.to,
    cc: message.cc || undefined,
    subject: message.subject,
    text: message.body,
    headers: PRIORITY_HEADERS[message.priority],
    inReplyTo: message.inReplyTo,
    references: message.references,
    textEncoding: 'quoted-printable',
  });
  return mail.compile().build();
}
