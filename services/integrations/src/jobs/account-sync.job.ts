import { defineJob } from '@haven/kit/queue';
import type { AccountSync } from '../domain/account-sync';

/** One account's sync (mail, calendar, Slack or Notion), queued when due or asked for (see `AccountSync.sync`). */
export function accountSyncJob(jobs: AccountSync) {
  return defineJob({
    queue: 'accounts.sync',
    concurrency: 2,
    handle: (payload, ctx) => jobs.sync(payload, ctx),
  });
}

/**
 * The sync by its former queue name, run for one release so what the release before queued during a
 * rolling update is not lost (see `mail.sync` in the contracts). One at a time: it only drains.
 */
export function legacyMailSyncJob(jobs: AccountSync) {
  return defineJob({ queue: 'mail.sync', concurrency: 1, handle: (payload, ctx) => jobs.sync(payload, ctx) });
}
