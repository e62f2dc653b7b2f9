import type { ParsedMessage } from './message';

/** Gmail labels of mail that is never a person waiting for an answer. */
const NOT_PERSONAL_LABELS = new Set([
  'SENT',
  'DRAFT',
  'SPAM',
  'TRASH',
  'CATEGORY_PROMOTIONS',
  'CATEGORY_SOCIAL',
  'CATEGORY_UPDATES',
  'CATEGORY_FORUMS',
]);

/** Local parts that machines send from. */
const AUTOMATED_SENDER =
  /^(no[-_.]?reply|do[-_.]?not[-_.]?reply|notifications?|notify|mailer-daemon|postmaster|bounces?|newsletters?|news|alerts?|automated|system)([-_.+].*)?@/i;

/**
 * Whether a person wrote this to the user and may be waiting for an answer: it is in the inbox, the
 * user is among its To/Cc recipients (not a list or Bcc), it is not from the user, and neither its
 * headers, labels nor sender say a machine sent it. Whether the user already answered is the
 * thread's business (see `threadAwaitsUser`).
 */
export function isReplyCandidate(message: ParsedMessage, account: string): boolean {
  const me = account.toLowerCase();
  if (!message.labelIds.includes('INBOX')) return false;
  if (message.labelIds.some((label) => NOT_PERSONAL_LABELS.has(label))) return false;
  if (!message.fromAddress || message.fromAddress === me) return false;
  if (message.automated || AUTOMATED_SENDER.test(message.fromAddress)) return false;
  return message.recipients.includes(me);
}

/** A thread's messages, oldest first, as `threads.get` (metadata) gives them. */
export interface ThreadMessage {
  id: string;
  internalDate: number;
  labelIds: string[];
  fromAddress: string;
}

/**
 * The message of the thread the user would answer: its last message, when that is not the user's
 * own (sent mail or a draft the user saved does not count as waiting for the user). Null when the
 * user wrote last.
 */
export function threadAwaitsUser(messages: ThreadMessage[], account: string): string | null {
  const me = account.toLowerCase();
  const real = messages
    .filter((m) => !m.labelIds.includes('DRAFT'))
    .sort((a, b) => a.internalDate - b.internalDate);
  const last = real.at(-1);
  if (!last || last.labelIds.includes('SENT') || last.fromAddress === me) return null;
  return last.id;
}
