import { repoPath } from '@haven/kit/paths';
import { deriveKey } from '@haven/kit/keys';
import { createRateLimiter } from '@haven/kit/rate-limit';
import type { ServiceDefinition } from '@haven/kit/service';
import { createSessionStore } from '@haven/kit/sessions';
import { outbox } from './db/schema';
import { createAuth } from './domain/auth';
import { mailSendJob } from './jobs/mail-send.job';
import { createMailTransport } from './mail/transport';
import { authRoutes } from './routes/auth.routes';
import { internalRoutes, preferencesRoutes } from './routes/preferences.routes';

/**
 * The auth service's composition root. It alone among the services holds JWT_SECRET: it signs the
 * session cookies the gateway verifies, and derives its verification-code key from it.
 */
export const authService: ServiceDefinition = {
  name: 'auth',
  migrationsFolder: repoPath('services', 'auth', 'drizzle'),
  outboxTable: outbox,
  requires: ['JWT_SECRET'],
  build(deps) {
    const { config } = deps;
    const jwtSecret = config.JWT_SECRET!;
    const sessions = createSessionStore(deps.redis, { prefix: config.REDIS_PREFIX, jwtSecret });
    const auth = createAuth(
      {
        db: deps.db,
        uow: deps.uow,
        config,
        cipher: deps.cipher,
        sessions,
        codeKey: deriveKey(jwtSecret, 'verification-code'),
        log: deps.log,
      },
      createMailTransport(config, deps.log),
    );
    const limiter = createRateLimiter(deps.redis, config.REDIS_PREFIX);
    return {
      routes: [authRoutes(auth, limiter, config), preferencesRoutes(auth), internalRoutes(auth)],
      jobs: [mailSendJob(auth)],
    };
  },
};
