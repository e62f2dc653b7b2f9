import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgSchema,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { outboxTable } from '@haven/kit/outbox-table';

/** Everything the assistant service stores lives in its own Postgres schema; no other service reads it. */
export const assistantSchema = pgSchema('assistant');

export const outbox = outboxTable(assistantSchema);

/** Saved conversations. The title is taken from the user's words, so it is encrypted like them. */
export const conversations = assistantSchema.table(
  'conversations',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull(),
    titleEnc: text('title_enc').notNull(),
    /** Set once a reply used the e-mail or calendar tools (the keyword badges are computed on read). */
    emailUsed: boolean('email_used').notNull().default(false),
    calendarUsed: boolean('calendar_used').notNull().default(false),
    /** Set on imported conversations: the import's key for it, so a retried batch writes it once. */
    importKey: text('import_key'),
    /** Set on a weekly review: the Monday of the week it walks through (one review per week). */
    reviewWeek: date('review_week', { mode: 'string' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('conversations_user_updated_idx').on(t.userId, t.updatedAt),
    uniqueIndex('conversations_user_import_key').on(t.userId, t.importKey),
    uniqueIndex('conversations_user_review_week').on(t.userId, t.reviewWeek),
    index('conversations_user_created_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * Messages, content, audio and metadata encrypted. An assistant message names the user message it answers
 * (`replyTo`, unique), so however often a reply job runs there is one reply per message.
 */
export const messages = assistantSchema.table(
  'messages',
  {
    id: serial('id').primaryKey(),
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull(),
    type: text('type').notNull(),
    contentEnc: text('content_enc').notNull(),
    audioEnc: text('audio_enc'),
    audioMime: text('audio_mime'),
    /**
     * What the message carries besides its text (an assistant reply's draft and event proposals, the
     * tools it used; a review request's week), as encrypted JSON: proposals hold journal and mail text.
     */
    metadataEnc: text('metadata_enc'),
    /** Metadata written before it was encrypted, until the background sealing moves it to `metadataEnc`. */
    legacyMetadata: jsonb('metadata').$type<Record<string, unknown>>(),
    /** The browser's getTimezoneOffset() when the user wrote it: "today" is the user's day. */
    timezoneOffset: integer('timezone_offset'),
    replyTo: integer('reply_to'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [
    index('messages_conversation_idx').on(t.conversationId, t.id),
    uniqueIndex('messages_reply_to_key').on(t.replyTo),
    index('messages_unanswered_idx')
      .on(t.createdAt)
      .where(sql`${t.type} = 'user'`),
  ],
);
