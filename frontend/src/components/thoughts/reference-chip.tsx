import type { Thought } from '@haven/contracts/thoughts';
import { displayCategory } from '@haven/contracts/common';
import { useState } from 'react';

import { LazyMarkdown } from '@/components/markdown/lazy-markdown';
import { CATEGORY_LABELS } from '@/components/thoughts/thought-categories';
import { formatLongDate } from '@/lib/format-date';
import { Badge } from '@/components/ui/badge';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { cn } from '@/lib/utils';

/** '#n' citing a thought: opens it; dimmed and inert when the thought cannot be resolved. */
export function ReferenceChip({ n, thought }: { n: number; thought: Thought | undefined }) {
  const [open, setOpen] = useState(false);
  const chip =
    'inline-flex h-6 min-w-7 items-center justify-center rounded-full px-2 text-xs font-semibold align-middle';
  // The target is 44×44 (a thumb's), the chip inside it as compact as before; the negative margins
  // keep a chip in a sentence from spreading its lines apart, reaching more into the line above
  // than into a button below it (the top padding re-centres the chip on its line).
  const target =
    'group -mt-3 -mb-2 inline-flex min-h-11 min-w-11 items-center justify-center rounded-full pt-1 align-middle outline-none';
  if (!thought) {
    return (
      <span
        aria-disabled="true"
        title="This thought is no longer available"
        className={cn(chip, 'bg-muted text-muted-foreground opacity-50')}
      >
        #{n}
      </span>
    );
  }
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-label={`Open cited thought #${n}`}
        className={target}
      >
        <span
          className={cn(
            chip,
            'bg-accent/15 text-accent group-hover:bg-accent/25 group-focus-visible:ring-2 group-focus-visible:ring-ring',
          )}
        >
          #{n}
        </span>
      </button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent showCloseButton>
          <DialogHeader>
            <DialogTitle>Thought #{n}</DialogTitle>
            <DialogDescription>
              {formatLongDate(new Date(thought.date))} · {CATEGORY_LABELS[displayCategory(thought.category)]}
            </DialogDescription>
          </DialogHeader>
          {/* Typed thoughts too: their line breaks stay, and a bare address becomes a link. */}
          <LazyMarkdown text={thought.content} variant="note" className="text-sm leading-relaxed" />
          {thought.tags.length > 0 && (
            <div className="flex flex-wrap gap-1.5">
              {thought.tags.map((tag) => (
                <Badge key={tag} variant="secondary">
                  #{tag}
                </Badge>
              ))}
            </div>
          )}
        </DialogContent>
      </Dialog>
    </>
  );
}
