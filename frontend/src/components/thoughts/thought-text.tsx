import { useRef, useState } from 'react';

import { LazyMarkdown } from '@/components/markdown/lazy-markdown';
import { cn } from '@/lib/utils';
import { useClamped } from './use-clamped';

/**
 * A thought's text in its card, rendered as Markdown (typed thoughts too: their line breaks stay,
 * and a bare address becomes a link). Cut at a few lines; when it is cut, "Show more" opens it in
 * place and "Show less" folds it again. Links and the toggle sit above the card's open button.
 */
export function ThoughtText({ id, text, lines }: { id: string; text: string; lines: 4 | 6 }) {
  const ref = useRef<HTMLDivElement>(null);
  const [expanded, setExpanded] = useState(false);
  const clamped = useClamped(ref, expanded);
  return (
    <>
      <div
        ref={ref}
        id={id}
        className={cn(
          'pointer-events-none w-full text-[15px] leading-relaxed [&_a]:pointer-events-auto [&_a]:relative [&_a]:z-10',
          !expanded && (lines === 4 ? 'line-clamp-4' : 'line-clamp-6'),
        )}
      >
        <LazyMarkdown text={text} variant="preview" />
      </div>
      {(clamped || expanded) && (
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={id}
          onClick={() => setExpanded((open) => !open)}
          className="pointer-events-auto relative z-10 -my-2 -ml-2 inline-flex h-11 min-w-11 items-center self-start rounded-md px-2 text-sm font-medium text-accent outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
        >
          {expanded ? 'Show less' : 'Show more'}
        </button>
      )}
    </>
  );
}
