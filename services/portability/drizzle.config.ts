import { defineConfig } from 'drizzle-kit';

/** Generates this service's migrations (committed SQL) from its schema: `npm run db:generate`. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './drizzle',
  schemaFilter: ['portability'],
});
