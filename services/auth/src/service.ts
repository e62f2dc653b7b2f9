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
import { USER_DATA_SERVICES, userDeleteQueue } from '@haven/contracts/jobs';
import type { ReconcilerDefinition } from '@haven/kit/reconciler';
import { defineJob } from '@haven/kit/queue';
import { createMailTransport } from './mail/transport';
import { authRoutes } from './routes/auth.routes';
import { internalRoutes, preferencesRoutes } from './routes/preferences.routes';

/** Mail unsent this long after it was queued is queued again (same job id: never sent twice). */
const UNSENT_MAIL_GRACE_MINUTES = 2;
/** A deletion a service has not reported this long after it was asked is asked again. */
const UNFINISHED_DELETION_MINUTES = 2;

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
      jobs: [
        mailSendJob(auth),
        defineJob({ queue: 'user.deletion.report', handle: (report) => auth.recordDeletion(report) }),
      ],
      reconcilers: [
        {
          // A mail.send job lost with Redis: the mail is still unsent in the table, so queue it again.
          name: 'auth-unsent-mail',
          queue: 'mail.send',
          everyMs: 60_000,
          findOverdue: async () =>
            (await findUnsentMailIds(deps.db, UNSENT_MAIL_GRACE_MINUTES)).map((mailId) => ({ mailId })),
        },
        // An account deletion a service has not reported after two minutes: ask it again.
        ...USER_DATA_SERVICES.map((service): ReconcilerDefinition => ({
          name: `auth-unfinished-deletion-${service}`,
          queue: userDeleteQueue(service),
          everyMs: 60_000,
          findOverdue: async () =>
            (await auth.unfinishedDeletions(UNFINISHED_DELETION_MINUTES))
              .filter((d) => d.service === service)
              .map(({ userId }) => ({ userId })),
        })),
      ],
    };
  },
};
