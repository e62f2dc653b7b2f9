import { repoPath } from '@haven/kit/paths';
import { deriveKey } from '@haven/kit/keys';
import { createRateLimiter } from '@haven/kit/rate-limit';
import type { ServiceDefinition } from '@haven/kit/service';
import { createSessionStore } from '@haven/kit/sessions';
import { findUnsentMailIds } from './db/mail.repository';
import { outbox } from './db/schema';
import { createAuth } from './domain/auth';
import { createLoginThrottle } from './domain/login-throttle';
import { mailSendJob } from './jobs/mail-send.job';
import { createMailTransport } from './mail/transport';
import { authRoutes } from './routes/auth.routes';
import { internalRoutes, preferencesRoutes } from './routes/preferences.routes';

/** Mail unsent this long after it was queued is queued again (same job id: never sent twice). */
const UNSENT_MAIL_GRACE_MINUTES = 2;

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
    const throttle = createLoginThrottle(deps.redis, {
      prefix: config.REDIS_PREFIX,
      deviceKey: deriveKey(jwtSecret, 'login-device'),
    });
    return {
      routes: [authRoutes(auth, limiter, throttle, config), preferencesRoutes(auth), internalRoutes(auth)],
      jobs: [mailSendJob(auth)],
      reconcilers: [
        {
          // A mail.send job lost with Redis: the mail is still unsent in the table, so queue it again.
          name: 'auth-unsent-mail',
          queue: 'mail.send',
          everyMs: 60_000,
          findOverdue: async () =>
            (await findUnsentMailIds(deps.db, UNSENT_MAIL_GRACE_MINUTES)).map((mailId) => ({ mailId })),
        },
      ],
    };
  },
};
