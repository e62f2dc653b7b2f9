import { repoPath } from '@haven/kit/paths';
import type { ServiceDefinition } from '@haven/kit/service';
import { outbox } from './db/schema';

/** The integrations service: its migrations, outbox, routes and queue tasks. */
export const integrationsService: ServiceDefinition = {
  name: 'integrations',
  migrationsFolder: repoPath('services', 'integrations', 'drizzle'),
  outboxTable: outbox,
  routes() {},
  jobs: () => [],
};
