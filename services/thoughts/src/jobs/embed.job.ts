import { defineJob } from '@haven/kit/queue';
import type { Logger } from '@haven/kit/logger';
import type { Meaning } from '../domain/meaning/meaning';

/**
 * The embedding of a thought that changed (see `Meaning.embedThought`). Always registered, since
 * the contracts say this service consumes the queue; with meaning off no job is queued, and one left
 * from before is done at once.
 */
export function embedJob(meaning: Meaning | null, log: Logger) {
  return defineJob({
    queue: 'thought.embed',
    concurrency: 2,
    async handle({ userId, thoughtId, change }) {
      if (!meaning) {
        log.debug({ thoughtId }, 'search by meaning is off; embedding skipped');
        return;
      }
      await meaning.embedThought(userId, thoughtId, change);
    },
  });
}
