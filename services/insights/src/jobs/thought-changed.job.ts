import { defineJob } from '@haven/kit/queue';
import type { Insights } from '../domain/insights';

/** A thought was created, edited or deleted: its periods go stale (idempotent upsert). */
export function thoughtChangedJob(insights: Insights) {
  return defineJob({
    queue: 'thought.changed',
    handle: ({ userId, localDate, changedAt }) => insights.thoughtChanged(userId, localDate, changedAt),
  });
}
