import type { Thought } from '@haven/contracts/thoughts';
import type { ReactNode } from 'react';

import { formatShortDay } from '@/components/thoughts/thought-format';

/** A thought's text as one line of words: Markdown's marks and line breaks left out. */
function plainPreview(content: string): string {
  return content
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^[ \t]*(?:#{1,6}|>|[-+*]|\d{1,9}[.)])[ \t]+/gm, '')
    .replace(/[*_`~]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A small card that opens one thought (a related entry, an entry of an earlier year): its day and
 * its first lines, as one button at least 44 px tall.
 */
export function CompactThought({
  thought,
  onOpen,
  when,
}: {
  thought: Thought;
  onOpen: (thought: Thought) => void;
  /** What to show as its date (its day, by default). */
  when?: ReactNode;
}) {
  return (
    <button
      type="button"
      onClick={() => onOpen(thought)}
      data-related-thought-id={thought.id}
      className="flex min-h-11 w-full flex-col gap-0.5 rounded-lg border bg-card px-3 py-2 text-left shadow-xs transition-colors outline-none hover:border-accent/40 hover:bg-muted/40 focus-visible:ring-2 focus-visible:ring-ring"
    >
      <span className="text-xs text-muted-foreground tabular-nums">
        {when ?? formatShortDay(thought.localDate)}
      </span>
      <span className="line-clamp-2 text-sm leading-snug">{plainPreview(thought.content) || '…'}</span>
    </button>
  );
}
