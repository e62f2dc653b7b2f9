import { boolean, integer, pgSchema, timestamp } from 'drizzle-orm/pg-core';
import { outboxTable } from '@haven/kit/outbox-table';

/** Everything the auth service stores lives in its own Postgres schema; no other service reads it. */
export const authSchema = pgSchema('auth');

export const outbox = outboxTable(authSchema);

/** The three privacy flags of a user, created with their defaults on first read. */
export const userPreferences = authSchema.table('user_preferences', {
  userId: integer('user_id').primaryKey(),
  askBeforeCalendarEvents: boolean('ask_before_calendar_events').notNull().default(true),
  askBeforeEmails: boolean('ask_before_emails').notNull().default(true),
  includeThoughtContent: boolean('include_thought_content').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
