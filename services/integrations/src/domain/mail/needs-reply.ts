import type { ParsedMessage } from './message';

/** Gmail labels of mail that is never a person waiting (the categories: see machine-signals). */
const NOT_WAITING_LABELS = new Set(['SENT', 'DRAFT', 'SPAM', 'TRASH']);

/**
 * Whether a person wrote this to the user: it is in the inbox, the user is among its To/Cc
 * recipients (not a list or Bcc), it is not from the user, and nothing says a machine sent it
 * (`message.machine`: list and bulk headers, Gmail's categories, sender, footers).
 */
function isPersonal(message: ParsedMessage, account: string): boolean {
  const me = account.toLowerCase();
  if (!message.labelIds.includes('INBOX')) return false;
  if (message.labelIds.some((label) => NOT_WAITING_LABELS.has(label))) return false;
  if (!message.fromAddress || message.fromAddress === me) return false;
  if (message.machine.length > 0) return false;
  return message.recipients.includes(me);
}

/**
 * Whether a person may be waiting for the user's answer to this message: a person wrote it to the
 * user (`isPersonal`) and its own text asks something of them (a question, a request, an
 * invitation to confirm, a deadline; see `readAsks`). Whether the user already answered is the
 * thread's business (see `threadAwaitsUser`).
 */
export function isReplyCandidate(message: ParsedMessage, account: string): boolean {
  return isPersonal(message, account) && message.asks.length > 0;
}

/** A thread's messages, oldest first, as `threads.get` (metadata) gives them. */
export interface ThreadMessage {
  id: string;
  internalDate: number;
  labelIds: string[];
  fromAddress: string;
  /** The metadata headers asked for (`THREAD_HEADERS`), by lower-cased name. */
  headers: Record<string, string>;
}

/**
 * The label of a message the user has answered, where the mailbox says so (IMAP's `\Answered`
 * flag, set by the mail app that sent the reply, which may keep no copy where Haven reads).
 */
export const ANSWERED = 'ANSWERED';

/** The headers a thread's metadata is read with: who wrote, to whom, and how to answer in the thread. */
export const THREAD_HEADERS = ['From', 'To', 'Cc', 'Subject', 'Message-ID', 'References', 'Auto-Submitted'];

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
  if (!last || last.labelIds.includes('SENT') || last.labelIds.includes(ANSWERED) || last.fromAddress === me)
    return null;
  return last.id;
}
