import { repoPath } from '@haven/kit/paths';
import type { ServiceDefinition } from '@haven/kit/service';
import { outbox } from './db/schema';
import { mailSendJob } from './jobs/mail-send.job';
import { createMailTransport } from './mail/transport';
import { authRoutes } from './routes/auth.routes';
import { preferencesRoutes } from './routes/preferences.routes';

/** The auth service: its migrations, outbox, routes and queue tasks. */
export const authService: ServiceDefinition = {
  name: 'auth',
  migrationsFolder: repoPath('services', 'auth', 'drizzle'),
  outboxTable: outbox,
  routes(router, deps) {
    authRoutes(router, deps);
    preferencesRoutes(router, deps);
  },
  jobs: (deps) => [mailSendJob(deps, createMailTransport(deps.config, deps.log))],
};
