import { repoPath } from '@haven/kit/paths';
import type { ServiceDefinition } from '@haven/kit/service';
import { outbox } from './db/schema';

/** The thoughts service: its migrations, outbox, routes and queue tasks. */
export const thoughtsService: ServiceDefinition = {
  name: 'thoughts',
  migrationsFolder: repoPath('services', 'thoughts', 'drizzle'),
  outboxTable: outbox,
  routes() {},
  jobs: () => [],
};
