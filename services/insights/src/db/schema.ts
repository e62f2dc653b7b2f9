import { pgSchema } from 'drizzle-orm/pg-core';
import { outboxTable } from '@haven/kit/outbox-table';

/** Everything the insights service stores lives in its own Postgres schema; no other service reads it. */
export const insightsSchema = pgSchema('insights');

export const outbox = outboxTable(insightsSchema);
