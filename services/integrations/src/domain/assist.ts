import { z } from 'zod';
import type { CalendarAnswer, CalendarEvent, RsvpBody } from '@haven/contracts/calendar';
import type { EmailDigest, EmailDraftAnswer, EmailDraftBody, EmailItem } from '@haven/contracts/mail';
import type { FieldCipher } from '@haven/kit/crypto';
import { conflict, notFound } from '@haven/kit/errors';
import type { Llm } from '@haven/kit/llm';
import type { Logger } from '@haven/kit/logger';
import type { Db } from '@haven/kit/db';
import { eventsAwaitingAnswer, findEventOfUser } from '../db/calendar-events.repository';
import {
  digestMessages,
  findMessageOfUser,
  messageCounts,
  type MailMessageRow,
} from '../db/mail-messages.repository';
import { MESSAGES, type Accounts } from './accounts';
import { eventContext, storeEvents } from './calendar/sync';
import type { CalendarSourceOf } from './calendar/source';
import { htmlToText } from './mail/sanitize';
import { mailContext } from './contexts';
import { CachedMail } from './mail/cached-mail';
import { templateReply } from '@haven/contracts/reply';

/** The digest shows at most this many e-mails: every one needing a reply first, then the newest. */
export const DIGEST_SIZE = 50;

/** The start of yesterday in the user's time zone (`offset` as `getTimezoneOffset()` gives it). */
export function startOfYesterday(now: Date, offsetMinutes: number): Date {
  const local = new Date(now.getTime() - offsetMinutes * 60_000);
  const midnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  return new Date(midnight - 86_400_000 + offsetMinutes * 60_000);
}

export interface AssistDeps {
  db: Db;
  cipher: FieldCipher;
  accounts: Accounts;
  /** The calendar account's source over its signed-in client (answering invitations). */
  calendarSourceOf: CalendarSourceOf;
  llm: Llm | null;
  log: Logger;
}

/** The Assist screen's reads (from the caches the syncs keep), reply drafts and RSVPs. */
export function createAssist({ db, cipher, accounts, calendarSourceOf, llm, log }: AssistDeps) {
  const cached = (row: MailMessageRow) =>
    CachedMail.parse(JSON.parse(cipher.decrypt(row.dataEnc, mailContext(row.userId))));

  function item(row: MailMessageRow, yesterday: Date): EmailItem {
    const data = cached(row);
    return {
      id: row.messageId,
      threadId: row.threadId,
      from: data.from,
      fromFull: data.fromFull,
      subject: data.subject,
      snippet: data.snippet,
      date: row.receivedAt.toISOString(),
      isNew: row.receivedAt >= yesterday,
      needsReply: row.needsReply,
    };
  }

  async function message(userId: number, messageId: string): Promise<MailMessageRow> {
    const row = await findMessageOfUser(db, userId, messageId);
    if (!row) throw notFound(MESSAGES.emailNotFound);
    return row;
  }

  return {
    async digest(userId: number, offsetMinutes = 0): Promise<EmailDigest> {
      const account = await accounts.connectedOf(userId, 'email');
      if (!account)
        return { connected: false, emails: [], stats: { newSinceYesterday: 0, needingResponse: 0 } };
      const yesterday = startOfYesterday(new Date(), offsetMinutes);
      const [rows, counts] = await Promise.all([
        digestMessages(db, account.id, DIGEST_SIZE),
        messageCounts(db, account.id, yesterday),
      ]);
      const emails = rows.map((row) => item(row, yesterday)).sort((a, b) => b.date.localeCompare(a.date));
      return {
        connected: true,
        emails,
        stats: {
          newSinceYesterday: counts?.newSinceYesterday ?? 0,
          needingResponse: counts?.needingResponse ?? 0,
        },
      };
    },

    /** One cached e-mail with its sanitised body; another user's is not found. */
    async email(userId: number, messageId: string, offsetMinutes = 0): Promise<EmailItem> {
      const row = await message(userId, messageId);
      const data = cached(row);
      return {
        ...item(row, startOfYesterday(new Date(), offsetMinutes)),
        body: row.bodyEnc ? cipher.decrypt(row.bodyEnc, mailContext(userId)) : undefined,
        hasRemoteImages: data.hasRemoteImages ?? false,
      };
    },

    /**
     * A reply draft for a cached e-mail. With a model: following the integration's contextual
     * rules, from the snippet only unless includeFullContent is on. Without one: a polite template.
     */
    async draft(userId: number, body: EmailDraftBody): Promise<EmailDraftAnswer> {
      const row = await message(userId, body.emailId);
      if (row.threadId !== body.threadId) throw notFound(MESSAGES.emailNotFound);
      const account = await accounts.byId(row.integrationId);
      if (!account || !accounts.isConnected(account)) throw conflict(MESSAGES.noEmail);
      const data = cached(row);
      const template = templateReply(data.from, data.subject);
      if (!llm) return { draft: template, source: 'template' };
      const { settings, contextualRules } = accounts.present(account);
      const content =
        settings.includeFullContent && row.bodyEnc
          ? htmlToText(cipher.decrypt(row.bodyEnc, mailContext(userId))).slice(0, 6000)
          : data.snippet;
      try {
        const answer = await llm.json({
          name: 'reply_draft',
          system: [
            'You draft a reply to an e-mail on behalf of the user. Write only the reply body: a ' +
              'greeting to the sender, a short, helpful answer, and a sign-off without a name. Never ' +
              'invent facts, dates or commitments the user has not made; leave a [placeholder] instead.',
            contextualRules ? `The user's rules for e-mail, which you must follow:\n${contextualRules}` : '',
          ]
            .filter(Boolean)
            .join('\n\n'),
          user: JSON.stringify({ from: data.fromFull, subject: data.subject, content }),
          schema: z.object({ draft: z.string().min(1).max(10_000) }),
        });
        return { draft: answer.draft, source: 'model' };
      } catch (err) {
        log.warn({ err }, 'reply draft by the model failed; template offered');
        return { draft: template, source: 'template' };
      }
    },

    /** Upcoming invitations awaiting the user's answer, from the cache. */
    async calendar(userId: number): Promise<CalendarAnswer> {
      const row = await accounts.connectedOf(userId, 'calendar');
      if (!row) return { connected: false, events: [] };
      const rows = await eventsAwaitingAnswer(db, row.id, new Date(Date.now() - 3_600_000), 50);
      return {
        connected: true,
        events: rows.map((r) => JSON.parse(cipher.decrypt(r.dataEnc, eventContext(userId))) as CalendarEvent),
      };
    },

    /** Answers an invitation in the calendar (the organiser is told) and updates the cache. */
    async rsvp(userId: number, eventId: string, { response }: RsvpBody): Promise<CalendarEvent> {
      const cachedEvent = await findEventOfUser(db, userId, eventId);
      if (!cachedEvent) throw notFound(MESSAGES.eventNotFound);
      const account = await accounts.byId(cachedEvent.integrationId);
      if (!account || !accounts.isConnected(account)) throw conflict(MESSAGES.noCalendar);
      const updated = await accounts.onAccount(account, () =>
        calendarSourceOf(account).respond(eventId, response),
      );
      if (!updated) throw notFound(MESSAGES.eventNotFound);
      await storeEvents({ db, cipher }, { integrationId: account.id, userId }, [updated]);
      return updated;
    },
  };
}
export type Assist = ReturnType<typeof createAssist>;
