import { repoPath } from '@haven/kit/paths';
import type { ServiceDefinition } from '@haven/kit/service';
import { outbox } from './db/schema';

/** The insights service: its migrations, outbox, routes and queue tasks. */
export const insightsService: ServiceDefinition = {
  name: 'insights',
  migrationsFolder: repoPath('services', 'insights', 'drizzle'),
  outboxTable: outbox,
  routes() {},
  jobs: () => [],
};
