import { pgSchema } from 'drizzle-orm/pg-core';
import { outboxTable } from '@haven/kit/outbox-table';

/** Everything the assistant service stores lives in its own Postgres schema; no other service reads it. */
export const assistantSchema = pgSchema('assistant');

export const outbox = outboxTable(assistantSchema);
