import { defineJob } from '@haven/kit/queue';
import type { Insights } from '../domain/insights';

/** Generates one period's insight (see `Insights.generate`); after the last attempt it is stored as failed. */
export function generateJob(insights: Insights) {
  return defineJob({
    queue: 'insights.generate',
    concurrency: 2,
    handle: (payload) => insights.generate(payload),
    onFailed: (payload) => insights.failed(payload),
  });
}
