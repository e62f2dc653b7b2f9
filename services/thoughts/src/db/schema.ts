import { pgSchema } from 'drizzle-orm/pg-core';
import { outboxTable } from '@haven/kit/outbox-table';

/** Everything the thoughts service stores lives in its own Postgres schema; no other service reads it. */
export const thoughtsSchema = pgSchema('thoughts');

export const outbox = outboxTable(thoughtsSchema);
