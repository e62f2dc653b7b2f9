import { defineJob } from '@haven/kit/queue';
import type { Thoughts } from '../domain/thoughts';

/** Speech to text for a voice thought saved as audio only (see `Thoughts.transcribe`). */
export function transcribeJob(thoughts: Thoughts) {
  return defineJob({
    queue: 'thought.transcribe',
    concurrency: 2,
    handle: ({ userId, thoughtId }) => thoughts.transcribe(userId, thoughtId),
  });
}
