import { repoPath } from '@haven/kit/paths';
import type { ServiceDefinition } from '@haven/kit/service';
import { outbox } from './db/schema';

/** The assistant service: its migrations, outbox, routes and queue tasks. */
export const assistantService: ServiceDefinition = {
  name: 'assistant',
  migrationsFolder: repoPath('services', 'assistant', 'drizzle'),
  outboxTable: outbox,
  routes() {},
  jobs: () => [],
};
