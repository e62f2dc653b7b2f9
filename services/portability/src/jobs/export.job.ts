import { defineJob } from '@haven/kit/queue';
import type { Portability } from '../domain/portability';

/** Builds one export (only the job of the transfer's current step does anything). */
export function exportJob(portability: Portability) {
  return defineJob({
    queue: 'data.export',
    concurrency: 1,
    handle: (payload) => portability.buildExport(payload),
    onFailed: (payload, error) => portability.failExport(payload, error),
  });
}
