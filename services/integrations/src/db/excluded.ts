import { sql } from 'drizzle-orm';

/** The value an upsert's conflicting insert proposed for `column` (`excluded.column`). */
export const excluded = (column: string) => sql.raw(`excluded.${column}`);
