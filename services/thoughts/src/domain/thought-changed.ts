import { newEventId } from '@haven/kit/outbox';
import type { Emit } from '@haven/kit/unit-of-work';
import type { ThoughtRow } from '../db/thoughts.repository';

/** Tells the insights service (and anyone listening) which day of whose thoughts changed. */
export function thoughtChanged(emit: Emit, row: ThoughtRow, change: 'created' | 'updated' | 'deleted') {
  return emit('thought.changed', {
    eventId: newEventId(),
    userId: row.userId,
    thoughtId: row.id,
    localDate: row.localDate,
    change,
    changedAt: (change === 'deleted' ? new Date() : row.updatedAt).toISOString(),
  });
}
