import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, type PgSchema, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The outbox table of a service, in the service's own schema. Events are written here in the same
 * transaction as the data they describe, then relayed to BullMQ, so a Redis outage loses nothing.
 */
export function outboxTable(schema: PgSchema) {
  return schema.table(
    'outbox',
    {
      id: bigserial('id', { mode: 'number' }).primaryKey(),
      queue: text('queue').notNull(),
      jobId: text('job_id').notNull(),
      payload: jsonb('payload').notNull(),
      requestId: text('request_id'),
      /** The W3C trace context of the work that wrote the event, when tracing (see tracing.ts). */
      traceparent: text('traceparent'),
      createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
      /** While set and in the future, one relay instance is publishing this row. */
      claimedUntil: timestamp('claimed_until', { withTimezone: true }),
      /**
       * Which relay holds the claim. A relay runs one round at a time, so a row still claimed by
       * itself when a round starts was abandoned by an earlier round (the database went away before
       * the claim's answer or the sent mark arrived) and is taken back at once.
       */
      claimedBy: text('claimed_by'),
      sentAt: timestamp('sent_at', { withTimezone: true }),
      attempts: integer('attempts').notNull().default(0),
      lastError: text('last_error'),
    },
    (t) => [
      index('outbox_unsent_idx')
        .on(t.id)
        .where(sql`${t.sentAt} is null`),
      // Account deletion removes a user's unsent events by the payload's userId.
      index('outbox_user_idx').on(sql`(${t.payload}->>'userId')`),
      index('outbox_sent_idx')
        .on(t.sentAt)
        .where(sql`${t.sentAt} is not null`),
    ],
  );
}
export type OutboxTable = ReturnType<typeof outboxTable>;
