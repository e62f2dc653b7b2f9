import type { Thought } from '@haven/contracts/thoughts';
import { useId } from 'react';

import { useRelatedThoughts } from '@/features/thoughts/api/get-related-thoughts';
import { CompactThought } from '@/features/thoughts/components/compact-thought';

/**
 * Under an opened thought, the entries most like it (up to five), each opening that entry. Asked for
 * only once the thought is opened (this is mounted then). Says on what ground they are related: by
 * meaning when the server has a meaning model, by shared words otherwise. Nothing shows when there
 * is nothing related.
 */
export function RelatedThoughts({
  thought,
  onOpen,
}: {
  thought: Thought;
  onOpen: (thought: Thought) => void;
}) {
  const headingId = useId();
  const related = useRelatedThoughts(thought.id, true);
  if (related.isPending)
    return (
      <p className="pt-1 text-xs text-muted-foreground" aria-live="polite">
        Looking for related entries…
      </p>
    );
  if (related.isError)
    return <p className="pt-1 text-xs text-muted-foreground">Related entries could not be loaded.</p>;
  const hits = related.data.hits.filter((hit) => hit.thought.id !== thought.id);
  if (hits.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2 border-t pt-3">
      <h3 id={headingId} className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">
        {related.data.basis === 'meaning' ? 'Related by meaning' : 'Related by shared words'}
      </h3>
      <ul className="flex flex-col gap-2">
        {hits.map((hit) => (
          <li key={hit.thought.id}>
            <CompactThought thought={hit.thought} onOpen={onOpen} />
          </li>
        ))}
      </ul>
    </section>
  );
}
