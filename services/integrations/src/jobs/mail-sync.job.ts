import { defineJob } from '@haven/kit/queue';
import type { AccountSync } from '../domain/account-sync';

/** One account's sync (mail, calendar, Slack or Notion), queued when due or asked for (see `AccountSync.sync`). */
export function mailSyncJob(jobs: AccountSync) {
  return defineJob({ queue: 'mail.sync', concurrency: 2, handle: (payload, ctx) => jobs.sync(payload, ctx) });
}
