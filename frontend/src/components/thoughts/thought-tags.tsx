import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

/** A tag that matched the search: accented, and said so. */
const EMPHASIS = 'bg-mark text-mark-foreground font-semibold';

/**
 * A thought's tags. With `onTag` each chip is a button (a full 44 px target around the small chip)
 * that shows the thoughts with that tag; without it they are read as the card's description.
 */
export function ThoughtTags({
  id,
  tags,
  onTag,
  emphasised = [],
}: {
  id: string;
  tags: string[];
  onTag?: (tag: string) => void;
  /** Tags that matched a search. */
  emphasised?: readonly string[];
}) {
  const matched = new Set(emphasised.map((tag) => tag.toLowerCase()));
  const isMatched = (tag: string) => matched.has(tag.toLowerCase());
  if (!onTag) {
    return (
      <span id={id} className="flex flex-wrap gap-1.5">
        <span className="sr-only">Tags: {tags.join(', ')}</span>
        {tags.map((tag) => (
          <Badge
            key={tag}
            variant="secondary"
            aria-hidden="true"
            className={cn('max-w-[12rem]', isMatched(tag) && EMPHASIS)}
          >
            <span className="truncate">#{tag}</span>
          </Badge>
        ))}
      </span>
    );
  }
  return (
    <ul aria-label="Tags" className="-my-2 -ml-1 flex flex-wrap">
      {tags.map((tag) => (
        <li key={tag} className="min-w-0">
          <button
            type="button"
            onClick={() => onTag(tag)}
            className="group pointer-events-auto relative z-10 inline-flex h-11 max-w-[13rem] min-w-11 items-center justify-center rounded-full px-1 outline-none"
          >
            <Badge
              variant="secondary"
              className={cn(
                'max-w-full group-hover:bg-accent-soft group-hover:text-accent group-focus-visible:ring-2 group-focus-visible:ring-ring',
                isMatched(tag) && EMPHASIS,
              )}
            >
              <span className="truncate">#{tag}</span>
            </Badge>
            <span className="sr-only">
              {isMatched(tag) && ', matches the search'}, show thoughts with this tag
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
