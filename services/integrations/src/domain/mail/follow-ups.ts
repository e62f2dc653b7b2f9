import addressparser from 'nodemailer/lib/addressparser';
import { z } from 'zod';
import { FOLLOW_UP_DAYS } from '@haven/contracts/integrations';
import type { WaitingAnswer, WaitingThread } from '@haven/contracts/mail';
import type { FieldCipher } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import {
  findFollowUp,
  followUpsInThreads,
  followUpsWaitingSince,
  keepOnlyFollowUps,
  pruneFollowUps,
  removeFollowUps,
  restartFollowUp,
  upsertFollowUps,
  type FollowUpInsert,
  type FollowUpRow,
} from '../../db/follow-ups.repository';
import type { Accounts } from '../accounts';
import type { ParsedMessage } from './message';
import type { ThreadMessage } from './needs-reply';
import { mailContext } from '../contexts';
import { firstNameOf, replySubject } from '@haven/contracts/reply';

/** 'Waiting for an answer' lists at most this many threads (the assistant's tool reads the same). */
export const WAITING_SIZE = 20;
/** Of the user's last messages in a thread, at most this many are read for a question. */
const RUN_READ = 3;
const DAY_MS = 86_400_000;

/** What a waiting thread keeps encrypted: the user's last message's recipients, subject and threading. */
const FollowUpData = z.object({
  to: z.string(),
  cc: z.string().optional(),
  subject: z.string(),
  messageIdHeader: z.string().optional(),
  references: z.string().optional(),
});
type FollowUpData = z.infer<typeof FollowUpData>;

/** An RFC 3834 automatic answer (an out-of-office notice) is no answer from the other side. */
const isAutomatic = (m: ThreadMessage) => {
  const value = m.headers['auto-submitted']?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== 'no';
};

/**
 * The user's messages since anyone else last wrote in the thread, oldest first: empty when the
 * other side wrote last. Drafts are not written yet, and automatic answers are not answers.
 */
export function usersLastRun(messages: ThreadMessage[], account: string): ThreadMessage[] {
  const me = account.toLowerCase();
  const mine = (m: ThreadMessage) => m.labelIds.includes('SENT') || (me !== '' && m.fromAddress === me);
  const real = messages
    .filter((m) => !m.labelIds.includes('DRAFT'))
    .sort((a, b) => a.internalDate - b.internalDate);
  const run: ThreadMessage[] = [];
  for (const m of real.reverse()) {
    if (mine(m)) run.unshift(m);
    else if (!isAutomatic(m)) break;
  }
  return run;
}

/** Whom the user waits for, as the digest names them: the first recipient, '+ n' when several. */
export function waitingFor(to: string): string {
  const all = addressparser(to, { flatten: true }).filter((a) => a.address || a.name);
  const [first] = all;
  if (!first) return to.trim() || '(no recipient)';
  const name = first.name || first.address;
  return all.length > 1 ? `${name} + ${all.length - 1}` : name;
}

/** The nudge a click puts in the e-mail dialog: short, polite, addressed to the other side. */
export function nudgeText(to: string, subject: string): string {
  const first = addressparser(to, { flatten: true })[0];
  const about = subject.replace(/^(re:\s*)+/i, '').trim();
  return [
    `Hi ${firstNameOf(first?.name || first?.address || '')},`,
    '',
    `I'm just following up on my message${about ? ` about "${about}"` : ''}. Could you let me know where things stand when you have a moment?`,
    '',
    'Thank you,',
  ].join('\n');
}

export interface FollowUpsDeps {
  db: Db;
  cipher: FieldCipher;
  accounts: Accounts;
}

/** Who a sync is for. */
interface Owner {
  integrationId: number;
  userId: number;
  account: string;
}

/**
 * Threads where the user wrote last, asked something (see `readAsks`) and is waiting for an
 * answer: kept up to date by the mail sync, listed after the user's number of days, answered with a
 * threaded nudge.
 */
export function createFollowUps({ db, cipher, accounts }: FollowUpsDeps) {
  const data = (row: FollowUpRow): FollowUpData =>
    FollowUpData.parse(JSON.parse(cipher.decrypt(row.dataEnc, mailContext(row.userId))));

  function present(row: FollowUpRow, now: number): WaitingThread {
    const kept = data(row);
    return {
      threadId: row.threadId,
      to: waitingFor(kept.to),
      subject: kept.subject,
      since: row.sentAt.toISOString(),
      days: Math.max(0, Math.floor((now - row.sentAt.getTime()) / DAY_MS)),
      nudge: {
        to: kept.to,
        ...(kept.cc ? { cc: kept.cc } : {}),
        subject: replySubject(kept.subject),
        body: nudgeText(kept.to, kept.subject),
        threadId: row.threadId,
      },
    };
  }

  return {
    /**
     * Brings the rows of `threads` (with their metadata, null when the thread is gone) up to date: a
     * thread waits while the user's last messages hold a question. Only messages not seen before
     * are read in full (`read`), at most the last three of a thread.
     */
    async update(
      mailbox: Owner,
      threads: Array<[string, ThreadMessage[] | null]>,
      read: (ids: string[]) => Promise<ParsedMessage[]>,
    ): Promise<void> {
      const known = new Map(
        (
          await followUpsInThreads(
            db,
            mailbox.integrationId,
            threads.map(([id]) => id),
          )
        ).map((row) => [row.threadId, row]),
      );
      const runs = new Map<string, ThreadMessage[]>();
      const unread: string[] = [];
      for (const [threadId, messages] of threads) {
        const run = usersLastRun(messages ?? [], mailbox.account);
        if (run.length === 0) continue;
        runs.set(threadId, run);
        // A thread already waiting stays so while the user writes on (a nudge restarts the clock).
        const waiting = known.get(threadId);
        if (!waiting || !run.some((m) => m.id === waiting.messageId))
          unread.push(...run.slice(-RUN_READ).map((m) => m.id));
      }
      const asked = new Set((await read(unread)).filter((m) => m.asks.length > 0).map((m) => m.messageId));
      const rows: FollowUpInsert[] = [];
      for (const [threadId, run] of runs) {
        const waiting = known.get(threadId);
        const still = waiting && run.some((m) => m.id === waiting.messageId);
        if (!still && !run.some((m) => asked.has(m.id))) continue;
        const last = run.at(-1)!;
        rows.push({
          integrationId: mailbox.integrationId,
          userId: mailbox.userId,
          threadId,
          messageId: last.id,
          sentAt: new Date(last.internalDate),
          dataEnc: cipher.encrypt(
            JSON.stringify({
              to: last.headers.to ?? '',
              cc: last.headers.cc || undefined,
              subject: last.headers.subject ?? '',
              messageIdHeader: last.headers['message-id'],
              references: last.headers.references,
            } satisfies FollowUpData),
            mailContext(mailbox.userId),
          ),
        });
      }
      const waitingNow = new Set(rows.map((r) => r.threadId));
      await removeFollowUps(
        db,
        mailbox.integrationId,
        threads.map(([id]) => id).filter((id) => !waitingNow.has(id)),
      );
      await upsertFollowUps(db, rows);
    },

    /** A full sync saw every thread the user wrote in: the others no longer wait. */
    keepOnly: (integrationId: number, threadIds: string[]) => keepOnlyFollowUps(db, integrationId, threadIds),
    prune: (integrationId: number, before: Date) => pruneFollowUps(db, integrationId, before),

    /** 'Waiting for an answer': what has waited the user's number of days or longer. */
    async list(userId: number): Promise<WaitingAnswer> {
      const account = await accounts.connectedOf(userId, 'email');
      if (!account) return { connected: false, days: FOLLOW_UP_DAYS, threads: [] };
      const days = accounts.settingsOf(account).followUpDays ?? FOLLOW_UP_DAYS;
      const now = Date.now();
      const rows = await followUpsWaitingSince(db, account.id, new Date(now - days * DAY_MS), WAITING_SIZE);
      return { connected: true, days, threads: rows.map((row) => present(row, now)) };
    },

    /** The headers that put a nudge under the user's own last message, when the thread waits. */
    async threading(userId: number, integrationId: number, threadId: string) {
      const row = await findFollowUp(db, userId, integrationId, threadId);
      if (!row) return null;
      const kept = data(row);
      if (!kept.messageIdHeader) return null;
      return {
        inReplyTo: kept.messageIdHeader,
        references: [kept.references, kept.messageIdHeader].filter(Boolean).join(' '),
      };
    },

    restart: (userId: number, integrationId: number, threadId: string) =>
      restartFollowUp(db, userId, integrationId, threadId),
  };
}
export type FollowUps = ReturnType<typeof createFollowUps>;
