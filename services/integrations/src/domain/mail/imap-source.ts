/**
 * An IMAP mailbox (and its SMTP server for sending) as a MailSource (see source.ts), with imapflow
 * and nodemailer. One connection per source, opened at the first call and closed by `close`; the
 * sync makes a source per run.
 *
 * - A message's id is its folder, the folder's UIDVALIDITY and its UID (`i.<validity>.<uid>` for the
 *   inbox, `s.` for the sent folder, `d.` for drafts): a mailbox rebuilt with new UIDs (a new
 *   UIDVALIDITY) makes new ids, and the full sync that follows replaces the cache without duplicates.
 * - The cursor holds the inbox's UIDVALIDITY, its next UID and the UIDs within the window, and the
 *   sent folder's next UID: what came is above the next UIDs, what left is missing from the UIDs.
 * - Threads come from the headers (see imap-threads.ts); the sent folder and drafts are found by
 *   SPECIAL-USE when the account does not name them.
 *
 * Its parts: the connection (imap-session.ts), the cursor and changes (imap-changes.ts), messages
 * and threads (imap-reading.ts), sending and drafts (imap-sending.ts), ids and searches they share
 * (imap-mailbox.ts).
 */
import { imapChanges } from './imap-changes';
import { headersOf, idOf, uidsOf, sinceDays, type Box } from './imap-mailbox';
import { imapReading } from './imap-reading';
import { imapSending } from './imap-sending';
import { imapSession, type ImapConnectOptions, type ImapSession } from './imap-session';
import { threadIdOf } from './imap-threads';
import type { ParseRawMail } from './mail-parser';
import type { ServerLogin } from './servers/check';
import type { MailSource, MailWindow, MessageRef } from './source';

/** An IMAP account as stored: where to read, where to send, and who the user is there. */
export interface ImapAccount {
  imap: ServerLogin;
  smtp: ServerLogin;
  /** The account's own address (the sender of its mail). */
  address: string;
  /** The folders named when it was connected; found again by SPECIAL-USE when missing. */
  folders?: { sent: string | null; drafts: string | null };
}

export interface ImapSourceOptions extends ImapConnectOptions {
  /** The window `changes` keeps track of (the sync's), in days. */
  windowDays: number;
  /** Past this size a message is read by its header section alone. */
  maxMessageBytes?: number;
}

/** A message bigger than this is read by its headers (25 MB is the usual attachment limit). */
const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;

/** The newest messages of a folder within the window, as references. */
async function listed(
  { pathOf, inFolder }: ImapSession,
  box: Box,
  window: MailWindow,
): Promise<MessageRef[]> {
  const path = await pathOf(box);
  if (!path) return [];
  return inFolder(path, async (client, validity) => {
    const uids = (await uidsOf(client, { since: sinceDays(window.days) })).slice(-window.max);
    return (await headersOf(client, uids)).map(({ uid, headers }) => {
      const id = idOf(box, validity, uid);
      return { id, threadId: threadIdOf(headers, id) };
    });
  });
}

export type ImapSource = MailSource & { close(): Promise<void> };

export function imapSource(
  account: ImapAccount,
  parse: ParseRawMail,
  options: ImapSourceOptions,
): ImapSource {
  const session = imapSession(account, options);
  const changes = imapChanges(session, options.windowDays);
  const { message, thread } = imapReading(session, parse, options.maxMessageBytes ?? MAX_MESSAGE_BYTES);
  const { send, saveDraft } = imapSending(session, account, options);

  return {
    async profile() {
      return { address: account.address.toLowerCase(), cursor: await changes.cursorNow() };
    },

    inbox: (window) => listed(session, 'i', window),

    async sentThreads(window) {
      return new Set((await listed(session, 's', window)).flatMap((m) => m.threadId ?? []));
    },

    changes: changes.changes,
    message,
    thread,
    send,
    saveDraft,
    close: session.close,
  };
}
