/**
 * A mailbox as the mail sync reads it, whoever serves it: one adapter per kind of account (Gmail's
 * API in gmail-source.ts). The sync, the reply triage, the follow-ups and the contacts work on what
 * this answers only.
 *
 * Messages carry labels in one vocabulary: `INBOX`, `SENT`, `DRAFT`, `SPAM`, `TRASH` for where a
 * message is (an IMAP adapter answers them from the folders' SPECIAL-USE and the \Draft flag), and
 * any provider's own categories beside them (Gmail's `CATEGORY_PROMOTIONS`…), which only widen what
 * is known about a message.
 */
import type { IntegrationRow } from '../../db/integrations.repository';
import type { ParsedMessage } from './message';
import type { ThreadMessage } from './needs-reply';

/** A message listed, before it is read. */
export interface MessageRef {
  id: string;
  threadId?: string;
}

/** How far back the inbox and the sent mail are read, and how many messages at most. */
export interface MailWindow {
  days: number;
  max: number;
}

/** What changed in the mailbox since a cursor. */
export interface MailChanges {
  /** Messages that came into the inbox (and are still there). */
  added: MessageRef[];
  /** Messages that left the inbox or were deleted. */
  removed: string[];
  /** Every thread that got or lost a message, the inbox's or not (a reply the user sent, too). */
  touchedThreads: Set<string>;
  /** Where the next changes are read from. */
  cursor: string;
}

/** A thread: each message's headers, and with `full` each message read whole too. */
export interface MailThread {
  messages: ThreadMessage[];
  parsed: ParsedMessage[];
}

/** The source no longer knows the cursor (too old, or the mailbox was rebuilt): a full sync follows. */
export class CursorExpired extends Error {
  override name = 'CursorExpired';
}

export interface MailSource {
  /** The account's own address (null when the source does not say), and the cursor of this moment. */
  profile(): Promise<{ address: string | null; cursor: string }>;
  /** The inbox within the window, newest first. */
  inbox(window: MailWindow): Promise<MessageRef[]>;
  /** The threads of the user's sent mail within the window. */
  sentThreads(window: MailWindow): Promise<Set<string>>;
  /** What changed since `cursor`; throws CursorExpired when the source no longer knows it. */
  changes(cursor: string): Promise<MailChanges>;
  /** One message read whole; null when it is gone. */
  message(id: string): Promise<ParsedMessage | null>;
  /** One thread; null when it is gone. */
  thread(id: string, full: boolean): Promise<MailThread | null>;
  /**
   * Sends a whole RFC 5322 message (its In-Reply-To and References put it in its thread; `threadId`
   * too, for a source that keeps threads apart); it lands in the sent mail.
   */
  send(message: Buffer, threadId?: string): Promise<void>;
  /** Saves the message to the account's drafts, where the user's mail app shows it. */
  saveDraft(message: Buffer, threadId?: string): Promise<void>;
  /** Lets go of what the source holds open (a server connection); it is not used after. */
  close?(): Promise<void>;
}

/** The source of a stored mail account, by its provider (chosen in service.ts). */
export type MailSourceOf = (account: IntegrationRow) => MailSource;
