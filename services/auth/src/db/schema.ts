import { sql } from 'drizzle-orm';
import {
  boolean,
  integer,
  pgSchema,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { outboxTable } from '@haven/kit/outbox-table';

/** Everything the auth service stores lives in its own Postgres schema; no other service reads it. */
export const authSchema = pgSchema('auth');

export const outbox = outboxTable(authSchema);

/** Accounts. E-mails are stored lower-cased; usernames are unique regardless of case. */
export const users = authSchema.table(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    name: text('name'),
    email: text('email').notNull(),
    /** argon2id. */
    passwordHash: text('password_hash').notNull(),
    isEmailVerified: boolean('is_email_verified').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_username_key').on(sql`lower(${t.username})`),
  ],
);

/** A registration waiting for its e-mailed code (or link). Codes and link tokens are stored hashed. */
export const pendingVerifications = authSchema.table(
  'pending_verifications',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    username: text('username').notNull(),
    name: text('name'),
    passwordHash: text('password_hash').notNull(),
    codeHash: text('code_hash').notNull(),
    linkTokenHash: text('link_token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Wrong codes entered since the last (re)send; the record locks at the limit. */
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('pending_email_key').on(t.email),
    uniqueIndex('pending_username_key').on(sql`lower(${t.username})`),
    uniqueIndex('pending_link_token_key').on(t.linkTokenHash),
  ],
);

/** Single-use password reset tokens, stored hashed. */
export const passwordResets = authSchema.table(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('password_resets_token_key').on(t.tokenHash)],
);

/**
 * Mail waiting for the `mail.send` worker. The whole message (recipient, subject, bodies) is
 * encrypted, and cleared once sent; the job carries only the id.
 */
export const outgoingMail = authSchema.table('outgoing_mail', {
  id: text('id').primaryKey(),
  kind: text('kind').notNull(),
  messageEnc: text('message_enc'),
  /** For notices sent at most once an hour per address: an HMAC of the address, never the address. */
  noticeKey: text('notice_key'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
});

/** The three privacy flags and the weekly review day of a user, created with their defaults on first read. */
export const userPreferences = authSchema.table('user_preferences', {
  userId: integer('user_id').primaryKey(),
  askBeforeCalendarEvents: boolean('ask_before_calendar_events').notNull().default(true),
  askBeforeEmails: boolean('ask_before_emails').notNull().default(true),
  includeThoughtContent: boolean('include_thought_content').notNull().default(true),
  /** 0 = Sunday … 6 = Saturday; null: no weekly review offered. */
  weeklyReviewDay: smallint('weekly_review_day').default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * An account being deleted: which services have reported their data gone. The account row (and
 * this one) go once all have. While it exists the account cannot sign in.
 */
export const accountDeletions = authSchema.table('account_deletions', {
  userId: integer('user_id').primaryKey(),
  requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
  done: text('done')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
});
