import { defineJob } from '@haven/kit/queue';
import type { AccountSync } from '../domain/account-sync';

/** A Google access token refreshed before it expires (see `AccountSync.refresh`). */
export function refreshJob(jobs: AccountSync) {
  return defineJob({ queue: 'integrations.refresh', handle: (payload) => jobs.refresh(payload) });
}
