import type { JobPayload } from '@haven/contracts/jobs';
import type { Emit, UnitOfWork } from '@haven/kit/unit-of-work';

/**
 * The unit of work the thoughts domain writes through while search by meaning is on: every
 * `thought.changed` it emits (an edit, a deletion, an import's one event a day) is joined, in the
 * same transaction, by a `thought.embed` job of the same event id for this service's own worker.
 */
export function withEmbedEvents(uow: UnitOfWork): UnitOfWork {
  return {
    run: (work) =>
      uow.run((tx, emit) => {
        const emitBoth: Emit = async (queue, payload) => {
          await emit(queue, payload);
          if (queue !== 'thought.changed') return;
          const { eventId, userId, thoughtId, change } = payload as JobPayload<'thought.changed'>;
          await emit('thought.embed', { eventId, userId, thoughtId, change });
        };
        return work(tx, emitBoth);
      }),
  };
}
