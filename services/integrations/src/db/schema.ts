import { pgSchema } from 'drizzle-orm/pg-core';
import { outboxTable } from '@haven/kit/outbox-table';

/** Everything the integrations service stores lives in its own Postgres schema; no other service reads it. */
export const integrationsSchema = pgSchema('integrations');

export const outbox = outboxTable(integrationsSchema);
