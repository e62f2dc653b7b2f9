import { pgSchema, serial, text } from 'drizzle-orm/pg-core';
import { outboxTable } from '../src/outbox-table';

/** A throwaway schema for the kit's own tests: some data and its outbox. */
export const kitTestSchema = pgSchema('kit_test');
export const notes = kitTestSchema.table('notes', {
  id: serial('id').primaryKey(),
  body: text('body').notNull(),
});
export const outbox = outboxTable(kitTestSchema);
