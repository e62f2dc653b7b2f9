import { sql } from 'drizzle-orm';
import {
  date,
  index,
  integer,
  pgSchema,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { outboxTable } from '@haven/kit/outbox-table';

/** Everything the insights service stores lives in its own Postgres schema; no other service reads it. */
export const insightsSchema = pgSchema('insights');

export const outbox = outboxTable(insightsSchema);

/**
 * When the thoughts of a period last changed, per user. An insight generated from thoughts read
 * before this time is stale and is never served; consuming `thought.changed` is all it takes to
 * keep it so, without regenerating anything until somebody asks.
 */
export const periodChanges = insightsSchema.table(
  'period_changes',
  {
    userId: integer('user_id').notNull(),
    /** 'day', 'week' (starting Monday) or 'month'. */
    range: text('range').notNull(),
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    changedAt: timestamp('changed_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.range, t.periodStart] })],
);

/**
 * One insight per (user, range, period). `request` counts the generations asked for: the job id
 * carries it, so a regeneration is never mistaken for (and deduplicated against) an earlier one.
 */
export const insights = insightsSchema.table(
  'insights',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull(),
    range: text('range').notNull(),
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    periodEnd: date('period_end', { mode: 'string' }).notNull(),
    /**
     * 'pending' while a job runs, then 'ready', 'failed' (every attempt failed) or 'empty' (no
     * thoughts); 'forgotten' after Refresh Insights, until the next generation.
     */
    status: text('status').notNull(),
    request: integer('request').notNull().default(1),
    requestedAt: timestamp('requested_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    /** 'ai' or 'basic', once generated. */
    engine: text('engine'),
    /** Encrypted JSON: summary, references, themes, suggestions, mood. */
    contentEnc: text('content_enc'),
    /** When the generation began reading thoughts: a change after it makes the insight stale. */
    sourceAt: timestamp('source_at', { withTimezone: true, precision: 6 }),
    /** What the thoughts service said of the period when it was read (count, latest change). */
    sourceCount: integer('source_count'),
    sourceChangedAt: timestamp('source_changed_at', { withTimezone: true, precision: 6 }),
    generatedAt: timestamp('generated_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('insights_period_key').on(t.userId, t.range, t.periodStart),
    index('insights_pending_idx')
      .on(t.requestedAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);
