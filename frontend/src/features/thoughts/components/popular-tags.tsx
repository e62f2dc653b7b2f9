import { Hash } from 'lucide-react';

import { tagTier, type TagCount } from '@/features/thoughts/lib/search-thoughts';
import { cn } from '@/lib/utils';

const TIER_CLASSES = [
  'h-11 px-3 text-xs',
  'h-11 px-3.5 text-sm',
  'h-11 px-4 text-base',
  'h-11 px-4 text-lg font-semibold',
] as const;

interface PopularTagsProps {
  tags: TagCount[];
  onPick: (tag: string) => void;
}

/** The most used tags as chips sized by use; picking one filters the results by it. */
export function PopularTags({ tags, onPick }: PopularTagsProps) {
  if (tags.length === 0) return null;
  return (
    <section aria-labelledby="popular-tags-heading" className="flex flex-col gap-3">
      <h2 id="popular-tags-heading" className="text-sm font-semibold text-muted-foreground">
        Popular Tags
      </h2>
      <ul className="flex flex-wrap items-center gap-2">
        {tags.map(({ tag, count }) => (
          <li key={tag} className="min-w-0">
            <button
              type="button"
              aria-label={`${tag}, ${count} ${count === 1 ? 'thought' : 'thoughts'}`}
              data-tier={tagTier(count)}
              onClick={() => onPick(tag)}
              className={cn(
                'inline-flex max-w-full items-center gap-1.5 rounded-full border bg-card font-medium shadow-xs transition-colors outline-none hover:border-accent/50 hover:bg-accent-soft focus-visible:ring-2 focus-visible:ring-ring',
                TIER_CLASSES[tagTier(count)],
              )}
            >
              <Hash aria-hidden="true" className="size-[0.9em] shrink-0 text-accent" />
              <span className="truncate">{tag}</span>
              <span className="rounded-full bg-muted px-1.5 text-xs font-medium text-muted-foreground tabular-nums">
                {count}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
