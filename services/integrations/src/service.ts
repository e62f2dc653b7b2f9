import { repoPath } from '@haven/kit/paths';
import type { ServiceDefinition } from '@haven/kit/service';
import { outbox } from './db/schema';

/** The integrations service's composition root (its routes and queues arrive with its issue). */
export const integrationsService: ServiceDefinition = {
  name: 'integrations',
  migrationsFolder: repoPath('services', 'integrations', 'drizzle'),
  outboxTable: outbox,
  build: () => ({ routes: [], jobs: [] }),
};
