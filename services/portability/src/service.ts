import { repoPath } from '@haven/kit/paths';
import { createRateLimiter } from '@haven/kit/rate-limit';
import type { ServiceDefinition } from '@haven/kit/service';
import { userDeletionJob } from '@haven/kit/user-deletion';
import { outbox } from './db/schema';
import { createBackupSchedule } from './domain/backup/schedule';
import { createBlobStore } from './domain/blob-store';
import { sandboxBudgets } from './domain/import/sandbox/sandbox';
import { createPortability } from './domain/portability';
import { createTransfers } from './domain/transfers';
import { backupJob } from './jobs/backup.job';
import { exportJob } from './jobs/export.job';
import { importJob } from './jobs/import.job';
import { portabilityRoutes } from './routes/portability.routes';

/**
 * The portability service's composition root: exports and imports of a user's data, and the only
 * caller of the other services' export and import routes. Its files live in the database (shared
 * by every replica), so it holds nothing on its own disk.
 */
export const portabilityService: ServiceDefinition = {
  name: 'portability',
  migrationsFolder: repoPath('services', 'portability', 'drizzle'),
  outboxTable: outbox,
  build(deps) {
    const blobs = createBlobStore({ db: deps.db, cipher: deps.cipher });
    const transfers = createTransfers({ db: deps.db, uow: deps.uow, blobs, cipher: deps.cipher });
    const portability = createPortability({
      db: deps.db,
      uow: deps.uow,
      blobs,
      cipher: deps.cipher,
      internal: deps.internal,
      log: deps.log,
      stepMs: deps.config.IMPORT_STEP_MS,
      sandbox: sandboxBudgets(deps.config.IMPORT_SANDBOX_HEAP_MB, deps.config.IMPORT_SANDBOX_TIME_MS),
    });
    const backups = createBackupSchedule({
      settings: deps.config,
      connection: deps.connection,
      keyId: deps.cipher.currentKeyId,
      registry: deps.metrics.registry,
      log: deps.log,
    });
    return {
      routes: [portabilityRoutes(transfers, createRateLimiter(deps.redis, deps.config.REDIS_PREFIX))],
      jobs: [
        exportJob(portability),
        importJob(portability),
        backupJob(backups),
        userDeletionJob('portability', { uow: deps.uow, schema: 'portability' }),
      ],
      reconcilers: [
        {
          name: 'portability-stalled-exports',
          queue: 'data.export',
          everyMs: 60_000,
          findOverdue: () => portability.stalled('export'),
        },
        {
          name: 'portability-stalled-imports',
          queue: 'data.import',
          everyMs: 60_000,
          findOverdue: () => portability.stalled('import'),
        },
        ...backups.reconcilers,
      ],
      periodic: [{ name: 'portability-sweep', everyMs: 10 * 60_000, run: () => portability.sweep() }],
    };
  },
};
