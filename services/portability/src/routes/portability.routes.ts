import { portabilityContract } from '@haven/contracts/portability';
import { implement, reply } from '@haven/kit/http';
import type { RateLimiter } from '@haven/kit/rate-limit';
import type { Transfers } from '../domain/transfers';

const HOUR = 3600;

/** Export and import of the signed-in user's data. */
export function portabilityRoutes(transfers: Transfers, limiter: RateLimiter) {
  return implement(portabilityContract, {
    startExport: async ({ userId }) => {
      await limiter.enforce({ name: 'export', key: String(userId), limit: 10, windowSeconds: HOUR });
      return reply(202, await transfers.startExport(userId));
    },
    exportStatus: ({ userId, params }) => transfers.exportStatus(userId, params.id),
    download: async ({ userId, params, res }) => {
      await transfers.download(userId, params.id, res);
      return null;
    },
    startImport: async ({ userId, req }) => {
      await limiter.enforce({ name: 'import', key: String(userId), limit: 10, windowSeconds: HOUR });
      return reply(202, await transfers.startImport(userId, req));
    },
    importStatus: ({ userId, params }) => transfers.importStatus(userId, params.id),
    importReport: async ({ userId, params, res }) => {
      await transfers.report(userId, params.id, res);
      return null;
    },
  });
}
