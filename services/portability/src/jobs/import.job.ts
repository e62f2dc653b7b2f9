import { defineJob } from '@haven/kit/queue';
import type { Portability } from '../domain/portability';

/**
 * One step of an import. Steps are short and each queues the next at the back of the queue, so
 * with two at a time one user's large import never keeps another's waiting for long.
 */
export function importJob(portability: Portability) {
  return defineJob({
    queue: 'data.import',
    concurrency: 2,
    handle: (payload) => portability.importStep(payload),
    onFailed: (payload, error) => portability.failImport(payload, error),
  });
}
