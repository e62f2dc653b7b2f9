import { defineJob } from '@haven/kit/queue';
import type { Assistant } from '../domain/assistant';

/** Writes the reply to one user message (exactly once; see `Assistant.reply`). */
export function replyJob(assistant: Assistant) {
  return defineJob({
    queue: 'assistant.reply',
    concurrency: 4,
    handle: (payload) => assistant.reply(payload),
    onFailed: (payload) => assistant.replyFailed(payload),
  });
}
