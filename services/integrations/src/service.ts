import { appUrl as publicUrl } from '@haven/kit/config';
import { deriveKey } from '@haven/kit/keys';
import { repoPath } from '@haven/kit/paths';
import type { ServiceDefinition } from '@haven/kit/service';
import { outbox } from './db/schema';
import { createIntegrations } from './domain/integrations';
import { createStateStore } from './domain/oauth-state';
import { actionRoutes, integrationsRoutes } from './routes/integrations.routes';

/** The integrations service's composition root. */
export const integrationsService: ServiceDefinition = {
  name: 'integrations',
  migrationsFolder: repoPath('services', 'integrations', 'drizzle'),
  outboxTable: outbox,
  build(deps) {
    const { config } = deps;
    const appUrl = publicUrl(config);
    const integrations = createIntegrations({
      db: deps.db,
      cipher: deps.cipher,
      // The state's key is derived from the internal secret for this one purpose.
      states: createStateStore(deps.db, deriveKey(config.INTERNAL_SECRET, 'oauth-state')),
      google: { ...config, appUrl },
      log: deps.log,
    });
    return { routes: [integrationsRoutes(integrations, appUrl), ...actionRoutes(integrations)], jobs: [] };
  },
};
