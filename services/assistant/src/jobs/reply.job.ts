import type { FairShare } from '@haven/kit/fair-share';
import { defineJob } from '@haven/kit/queue';
import type { Assistant } from '../domain/assistant';

/** How soon a reply that waits for the same user's running one looks again. */
export const TURN_WAIT_MS = 1000;

/**
 * Writes the reply to one user message (exactly once; see `Assistant.reply`). A user's replies are
 * written one at a time (`turns`): fifty questions sent at once take one worker, in turn, while the
 * other users' questions are answered by the others. A waiting reply is put back, delayed, without
 * using up an attempt, and keeps its job id.
 */
export function replyJob(assistant: Assistant, turns: FairShare) {
  return defineJob({
    queue: 'assistant.reply',
    concurrency: 4,
    handle: async (payload, { job, retryIn }) => {
      const user = String(payload.userId);
      const jobId = job.id!;
      if (!(await turns.take(user, jobId))) return retryIn(TURN_WAIT_MS);
      try {
        await assistant.reply(payload);
      } finally {
        await turns.release(user, jobId);
      }
    },
    onFailed: (payload) => assistant.replyFailed(payload),
  });
}
