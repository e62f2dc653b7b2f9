import { sql } from 'drizzle-orm';
import { integer, jsonb, pgSchema, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('integrations_user_provider_type_key').on(t.userId, t.provider, t.type)],
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
