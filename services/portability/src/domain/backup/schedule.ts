/**
 * The scheduled backups of a running service: when one is due, taking it for the backup job, and what
 * /metrics says about them (a failed backup shows there and in the log).
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { DatabaseConnection } from '@haven/kit/db';
import type { Logger } from '@haven/kit/logger';
import type { ReconcilerDefinition } from '@haven/kit/reconciler';
import { createBackups, type Backups } from './backups';
import { serviceSchemas } from './schemas';
import { backupStoreAt, type BucketSettings } from './stores';

export interface BackupSettings extends BucketSettings {
  /** The folder or bucket backups go to; unset, nothing is scheduled and a queued backup is skipped. */
  BACKUP_URL?: string;
  BACKUP_CRON: string;
  BACKUP_KEEP: number;
}

export interface BackupSchedule {
  /** Takes the backup for `at` (the job's handler). */
  run(at: Date, log: Logger): Promise<void>;
  /** Queues the backup whose time has come, once a minute, where workers run. */
  reconcilers: ReconcilerDefinition[];
}

function backupMetrics(registry: Registry, backups: Backups | undefined) {
  const failures = new Counter({
    name: 'haven_backup_failures_total',
    help: 'Backup attempts that failed (each is tried again; see the log).',
    registers: [registry],
  });
  const lastFailure = new Gauge({
    name: 'haven_backup_last_failure_timestamp_seconds',
    help: 'When a backup attempt last failed (0: none since this process started).',
    registers: [registry],
  });
  // Read from the backups folder when scraped, so every replica tells the same, whichever took it.
  const newest = async () => (await backups?.store.list())?.at(-1);
  new Gauge({
    name: 'haven_backup_last_success_timestamp_seconds',
    help: 'When the newest backup kept was taken (0: none).',
    registers: [registry],
    async collect() {
      const file = await newest().catch(() => undefined);
      this.set(file ? file.takenAt.getTime() / 1000 : 0);
    },
  });
  new Gauge({
    name: 'haven_backup_last_size_bytes',
    help: 'The size of the newest backup kept.',
    registers: [registry],
    async collect() {
      this.set((await newest().catch(() => undefined))?.size ?? 0);
    },
  });
  return {
    failed() {
      failures.inc();
      lastFailure.set(Date.now() / 1000);
    },
  };
}

export function createBackupSchedule(deps: {
  settings: BackupSettings;
  connection: DatabaseConnection;
  /** The id of the current DATA_ENCRYPTION_KEY, recorded in each backup. */
  keyId: string;
  registry: Registry;
  log: Logger;
}): BackupSchedule {
  const { settings } = deps;
  const backups = settings.BACKUP_URL
    ? createBackups({
        conn: deps.connection,
        store: backupStoreAt(settings.BACKUP_URL, settings),
        services: serviceSchemas(),
        keep: settings.BACKUP_KEEP,
        keyId: deps.keyId,
        log: deps.log,
      })
    : undefined;
  const metrics = backupMetrics(deps.registry, backups);
  return {
    async run(at, log) {
      if (!backups) {
        log.warn({ at }, 'a backup was asked for, but BACKUP_URL is not set: nothing written');
        return;
      }
      try {
        await backups.take(at);
      } catch (err) {
        metrics.failed();
        log.error({ err, at, location: backups.store.location }, 'backup failed; it will be tried again');
        throw err;
      }
    },
    reconcilers: backups
      ? [
          {
            name: 'portability-backup-due',
            queue: 'backup.run',
            everyMs: 60_000,
            findOverdue: async () => {
              const slot = await backups.due(settings.BACKUP_CRON, new Date());
              return slot ? [{ at: slot.toISOString() }] : [];
            },
          },
        ]
      : [],
  };
}
