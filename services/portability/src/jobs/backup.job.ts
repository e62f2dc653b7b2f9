import { defineJob } from '@haven/kit/queue';
import type { BackupSchedule } from '../domain/backup/schedule';

/**
 * Takes the backup for the time the schedule (or the operator) named. A failed attempt is counted in
 * /metrics and logged, and tried again with the queue's backoff; the same time is never written twice.
 */
export function backupJob(schedule: BackupSchedule) {
  return defineJob({
    queue: 'backup.run',
    concurrency: 1,
    handle: ({ at }, { log }) => schedule.run(new Date(at), log),
    onFailed: async ({ at }, error, { log }) =>
      log.error({ err: error, at }, 'backup failed on every attempt: there is no backup for this time'),
  });
}
