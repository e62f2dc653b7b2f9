import type { FieldCipher } from '@haven/kit/crypto';
import type { Llm } from '@haven/kit/llm';
import type { Logger } from '@haven/kit/logger';
import type { Db } from '@haven/kit/db';
import {
  deleteMessages,
  keepOnlyMessages,
  messageIdsInThreads,
  pruneMessages,
  upsertMailMessages,
} from '../../db/mail-messages.repository';
import type { Contacts } from './contacts';
import type { FollowUps } from './follow-ups';
import { followUpTracking, type TrackFollowUps } from './follow-up-tracking';
import { inboxRows } from './inbox-cache';
import type { MailAccount } from './mail-account';
import type { ParsedMessage } from './message';
import { readMessages } from './message-reading';
import { createReplyMarks, replyCandidates, type ReplyMarks } from './reply-marks';
import { createReplyTriage } from './reply-triage';
import { CursorExpired, type MailSource, type MessageRef } from './source';
import { threadReader, type ThreadReader } from './thread-reader';

export type { MailAccount } from './mail-account';

/** How far back the first sync reaches, and how many messages it keeps at most. */
export const MAIL_WINDOW_DAYS = 30;
export const MAIL_SYNC_MAX = 500;
const WINDOW = { days: MAIL_WINDOW_DAYS, max: MAIL_SYNC_MAX };

export interface MailSyncDeps {
  db: Db;
  cipher: FieldCipher;
  log: Logger;
  llm: Llm | null;
  followUps: FollowUps;
  contacts: Contacts;
}

/** The steps a full or an incremental run is made of, built once from the deps. */
interface SyncSteps {
  db: Db;
  followUps: FollowUps;
  contacts: Contacts;
  /** Caches the inbox's messages among these (encrypted). */
  store(mailbox: MailAccount, messages: ParsedMessage[]): Promise<void>;
  markReplies: ReplyMarks;
  trackFollowUps: TrackFollowUps;
}

/**
 * The threads a full run reads whole: those the user wrote in (where they wrote last and asked may
 * be waiting, and the user's last messages in most of them are read), and those with more than one
 * message in the inbox (one call for their messages instead of one each).
 */
function threadsReadWhole(listed: MessageRef[], sentThreads: Set<string>): Set<string> {
  const inInbox = new Map<string, number>();
  for (const { threadId } of listed) if (threadId) inInbox.set(threadId, (inInbox.get(threadId) ?? 0) + 1);
  return new Set([...sentThreads, ...[...inInbox].filter(([, n]) => n > 1).map(([id]) => id)]);
}

/** Lists the inbox window anew and replaces the cache with it; answers the new cursor. */
async function fullSync(steps: SyncSteps, source: MailSource, mailbox: MailAccount): Promise<string> {
  const { db, followUps, contacts } = steps;
  const profile = await source.profile();
  // The account's own address decides which mail is the user's own; the caller stores it.
  if (profile.address) mailbox.account = profile.address;
  const listed = await source.inbox(WINDOW);
  const ids = listed.map((m) => m.id);
  const sentThreads = await source.sentThreads(WINDOW);
  const read = threadReader(source);
  const messages = await readMessages(source, read, listed, threadsReadWhole(listed, sentThreads));
  await steps.store(mailbox, messages);
  // What is no longer in the inbox window leaves the cache.
  await keepOnlyMessages(db, mailbox.integrationId, ids);
  const candidates = replyCandidates(messages, mailbox.account);
  await steps.markReplies(
    read,
    mailbox,
    new Set([...candidates.values()].map((m) => m.threadId)),
    candidates,
  );
  await steps.trackFollowUps(source, read, mailbox, sentThreads, true);
  await followUps.keepOnly(mailbox.integrationId, [...sentThreads]);
  await contacts.rememberWrittenTo(mailbox, read.parsed.values());
  return profile.cursor;
}

/**
 * Adds to `candidates` those of earlier runs in these threads: they keep their verdict unless the
 * thread moved on, and then they are looked at again.
 */
async function addEarlierCandidates(
  steps: SyncSteps,
  source: MailSource,
  read: ThreadReader,
  mailbox: MailAccount,
  touchedThreads: Set<string>,
  candidates: Map<string, ParsedMessage>,
): Promise<void> {
  const cachedInThreads = await messageIdsInThreads(steps.db, mailbox.integrationId, [...touchedThreads]);
  const stillCached = cachedInThreads.filter((id) => !candidates.has(id));
  const earlier = await readMessages(
    source,
    read,
    stillCached.map((id) => ({ id })),
    new Set(),
  );
  for (const [id, m] of replyCandidates(earlier, mailbox.account)) candidates.set(id, m);
}

/** Reads the changes since `cursor` into the cache; answers the new cursor. */
async function incrementalSync(
  steps: SyncSteps,
  source: MailSource,
  mailbox: MailAccount,
  cursor: string,
): Promise<string> {
  const { added, removed, touchedThreads, cursor: next } = await source.changes(cursor);
  await deleteMessages(steps.db, mailbox.integrationId, removed);
  // A thread that got a message (the user's reply or nudge, the other side's answer) is read
  // whole, once: its new messages, its earlier candidates and its state, for the reply triage and
  // the follow-ups alike.
  const read = threadReader(source);
  const messages = await readMessages(source, read, added, touchedThreads);
  await steps.store(mailbox, messages);
  for (const m of messages) touchedThreads.add(m.threadId);
  const candidates = replyCandidates(messages, mailbox.account);
  await addEarlierCandidates(steps, source, read, mailbox, touchedThreads, candidates);
  await steps.markReplies(read, mailbox, touchedThreads, candidates);
  await steps.trackFollowUps(source, read, mailbox, touchedThreads);
  await steps.contacts.rememberWrittenTo(mailbox, read.parsed.values());
  await prune(steps, mailbox);
  return next;
}

/** Mail older than the window leaves the cache, and so does a question unanswered for as long. */
async function prune({ db, followUps }: SyncSteps, mailbox: MailAccount): Promise<void> {
  const before = new Date(Date.now() - MAIL_WINDOW_DAYS * 86_400_000);
  await pruneMessages(db, mailbox.integrationId, before);
  await followUps.prune(mailbox.integrationId, before);
}

/**
 * Brings one account's cached inbox up to date, from its MailSource. The first run (or one whose
 * cursor the source no longer knows) lists the last 30 days of the inbox, at most 500 messages;
 * later runs read only the changes since the stored cursor. Answers the new cursor. Rate limits and
 * lost grants are thrown for the caller to handle.
 */
export function createMailSync({ db, cipher, log, llm, followUps, contacts }: MailSyncDeps) {
  const steps: SyncSteps = {
    db,
    followUps,
    contacts,
    store: (mailbox, messages) => upsertMailMessages(db, inboxRows(cipher, mailbox, messages)),
    markReplies: createReplyMarks({ db, triage: createReplyTriage({ llm, log }) }),
    trackFollowUps: followUpTracking(followUps),
  };

  return {
    async sync(source: MailSource, mailbox: MailAccount): Promise<string> {
      if (!mailbox.cursor) return fullSync(steps, source, mailbox);
      try {
        return await incrementalSync(steps, source, mailbox, mailbox.cursor);
      } catch (err) {
        if (!(err instanceof CursorExpired)) throw err;
        log.info({ integrationId: mailbox.integrationId }, 'sync cursor expired; full mail sync');
        return fullSync(steps, source, mailbox);
      }
    },
  };
}
export type MailSync = ReturnType<typeof createMailSync>;
