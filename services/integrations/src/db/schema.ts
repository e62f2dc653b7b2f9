import { sql } from 'drizzle-orm';
import {
  boolean,
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

/** Everything the integrations service stores lives in its own Postgres schema; no other service reads it. */
export const integrationsSchema = pgSchema('integrations');

export const outbox = outboxTable(integrationsSchema);

/**
 * One connected account per user, provider and type. Tokens and the user's contextual rules are
 * encrypted (bound to the owner); settings hold the switches and the last sync or token error.
 */
export const integrations = integrationsSchema.table(
  'integrations',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull(),
    provider: text('provider').notNull(),
    type: text('type').notNull(),
    accessTokenEnc: text('access_token_enc'),
    refreshTokenEnc: text('refresh_token_enc'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    scope: text('scope'),
    settings: jsonb('settings')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    contextualRulesEnc: text('contextual_rules_enc'),
    /** The account's own address (encrypted): mail from it is the user's own. */
    accountEnc: text('account_enc'),
    /** Where the next incremental sync starts (Gmail's history id). */
    syncCursor: text('sync_cursor'),
    /** How many syncs were asked for (the `accounts.sync` job’s `request`). */
    syncRequest: integer('sync_request').notNull().default(0),
    /** When the next sync is due; pushed back after a rate limit. */
    nextSyncAt: timestamp('next_sync_at', { withTimezone: true }),
    lastSyncedAt: timestamp('last_synced_at', { withTimezone: true }),
    /** Rate-limited syncs in a row (the backoff doubles with each). */
    syncBackoffs: integer('sync_backoffs').notNull().default(0),
    /**
     * How the provider's push notifications name this account: Graph's subscription id, or a keyed
     * hash of a Gmail address (Pub/Sub names the mailbox by its address). Null while nothing pushes.
     */
    pushKey: text('push_key'),
    /** When the provider stops pushing unless the watch or subscription is renewed. */
    pushExpiresAt: timestamp('push_expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('integrations_user_provider_type_key').on(t.userId, t.provider, t.type),
    index('integrations_push_key_idx').on(t.provider, t.pushKey),
  ],
);

/**
 * The `state` of a consent in progress: single-use (deleted when used), bound to the user, the
 * provider and the type, and refused after `expires_at`.
 */
export const oauthStates = integrationsSchema.table('oauth_states', {
  nonce: text('nonce').primaryKey(),
  userId: integer('user_id').notNull(),
  provider: text('provider').notNull(),
  type: text('type').notNull(),
  /** Where the consent returns (the token exchange must name the same address). */
  redirectUri: text('redirect_uri'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * The cached inbox of a connected mail account: the sender, subject, snippet and threading headers
 * in one encrypted JSON value, the sanitised body in another; only what the digest sorts and counts
 * by is in the clear.
 */
export const mailMessages = integrationsSchema.table(
  'mail_messages',
  {
    id: serial('id').primaryKey(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull(),
    /** The mail account's message id. */
    messageId: text('message_id').notNull(),
    threadId: text('thread_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    needsReply: boolean('needs_reply').notNull().default(false),
    dataEnc: text('data_enc').notNull(),
    bodyEnc: text('body_enc'),
  },
  (t) => [
    uniqueIndex('mail_messages_integration_message_key').on(t.integrationId, t.messageId),
    index('mail_messages_user_received_idx').on(t.userId, t.receivedAt),
  ],
);

/**
 * Threads of a mail account where the user wrote last and asked something ('Waiting for an
 * answer'): one row per thread, gone once the other side answers. `sentAt` is when the user last
 * wrote (the clock a sent nudge restarts); whom they wrote to, the subject and the threading
 * headers of that last message are encrypted in `dataEnc`.
 */
export const mailFollowUps = integrationsSchema.table(
  'mail_follow_ups',
  {
    id: serial('id').primaryKey(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull(),
    threadId: text('thread_id').notNull(),
    /** The mail account's id of the user's last message in the thread. */
    messageId: text('message_id').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    dataEnc: text('data_enc').notNull(),
  },
  (t) => [
    uniqueIndex('mail_follow_ups_integration_thread_key').on(t.integrationId, t.threadId),
    index('mail_follow_ups_integration_sent_idx').on(t.integrationId, t.sentAt),
  ],
);

/**
 * People the user wrote to from a connected mail account (To and Cc of their own messages in the
 * synced threads), so the assistant can tell a draft to someone they know from one to an address it
 * found in a received mail. Only a keyed blind index of each address is kept, never the address.
 */
export const mailContacts = integrationsSchema.table(
  'mail_contacts',
  {
    id: serial('id').primaryKey(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull(),
    /** The blind index of the lower-cased address, scoped to the user (see `contactKey`). */
    addressKey: text('address_key').notNull(),
    lastWrittenAt: timestamp('last_written_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('mail_contacts_integration_address_key').on(t.integrationId, t.addressKey),
    index('mail_contacts_user_address_idx').on(t.userId, t.addressKey),
  ],
);

/** Upcoming events of a connected calendar in which the user is an attendee (encrypted details). */
export const calendarEvents = integrationsSchema.table(
  'calendar_events',
  {
    id: serial('id').primaryKey(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull(),
    eventId: text('event_id').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    /** The user's own attendee answer: needsAction, accepted, declined or tentative. */
    responseStatus: text('response_status').notNull(),
    dataEnc: text('data_enc').notNull(),
  },
  (t) => [
    uniqueIndex('calendar_events_integration_event_key').on(t.integrationId, t.eventId),
    index('calendar_events_user_starts_idx').on(t.userId, t.startsAt),
  ],
);

/**
 * What the Slack and Notion syncs keep: mentions and direct messages waiting for the user, and
 * recently edited pages. Their text is encrypted; the kind, time and reply flag sort them.
 */
export const providerItems = integrationsSchema.table(
  'provider_items',
  {
    id: serial('id').primaryKey(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull(),
    /** `mention` or `dm` (Slack), `page` (Notion). */
    kind: text('kind').notNull(),
    externalId: text('external_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    needsReply: boolean('needs_reply').notNull().default(false),
    dataEnc: text('data_enc').notNull(),
  },
  (t) => [
    uniqueIndex('provider_items_integration_external_key').on(t.integrationId, t.kind, t.externalId),
    index('provider_items_user_at_idx').on(t.userId, t.at),
  ],
);
