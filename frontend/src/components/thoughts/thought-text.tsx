import type { Highlight } from '@haven/contracts/thoughts';
import { useRef, useState } from 'react';

import { HighlightedParagraphs, Marked } from '@/components/thoughts/highlighted-text';
import { LazyMarkdown, mayBeMarkdown } from '@/components/markdown/lazy-markdown';
import { excerptAround, withoutMarkdownMarks, type Excerpt } from '@/lib/highlight';
import { cn } from '@/lib/utils';
import { useClamped } from './use-clamped';

/** A first match further in than this starts the folded card shortly before it, after "…". */
const EXCERPT_FROM = 120;

/**
 * How search matches show: `plain` text (no Markdown syntax) is drawn with its matches marked; the
 * `excerpt` is the words around the first match, for a Markdown note or a match far into plain text.
 */
function matchesOf(
  text: string,
  highlights: readonly Highlight[],
): { plain: boolean; excerpt: Excerpt | null } {
  const marked = highlights.length > 0;
  const plain = marked && !mayBeMarkdown(text);
  const firstMatch = Math.min(...highlights.map((h) => h.start));
  const excerpt =
    marked && (!plain || firstMatch > EXCERPT_FROM)
      ? plain
        ? excerptAround(text, highlights, { length: 600 })
        : withoutMarkdownMarks(excerptAround(text, highlights))
      : null;
  return { plain, excerpt };
}

/** The line under a Markdown note that shows the words around its first match. */
function MatchLine({ excerpt }: { excerpt: Excerpt }) {
  return (
    <p className="pointer-events-none line-clamp-2 border-l-2 border-mark pl-2 text-sm leading-relaxed text-muted-foreground">
      <span className="sr-only">Match: </span>
      {excerpt.cutStart && '…'}
      <Marked text={excerpt.text} highlights={excerpt.highlights} />
      {excerpt.cutEnd && '…'}
    </p>
  );
}

interface ThoughtTextProps {
  id: string;
  text: string;
  lines: 4 | 6;
  /** Search matches to mark (UTF-16 offsets into `text`). */
  highlights?: readonly Highlight[];
  /** Told when "Show more" opens the text or "Show less" folds it. */
  onExpandedChange?: (expanded: boolean) => void;
}

/**
 * A thought's text in its card, rendered as Markdown (typed thoughts too: their line breaks stay,
 * and a bare address becomes a link). Cut at a few lines; when it is cut, "Show more" opens it in
 * place and "Show less" folds it again. Links and the toggle sit above the card's open button.
 *
 * With search matches: text without Markdown syntax is drawn as its paragraphs with the matches
 * marked (folded, it starts shortly before the first match when that is further in); a note
 * with Markdown is rendered as usual, and a line under it shows the words around the first match.
 */
export function ThoughtText({ id, text, lines, highlights = [], onExpandedChange }: ThoughtTextProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [expanded, setExpanded] = useState(false);
  const clamped = useClamped(ref, expanded);
  const { plain, excerpt } = matchesOf(text, highlights);
  // Folded plain text that starts at its excerpt hides what is before it, so it can always be opened.
  const startsLate = plain && !expanded && excerpt !== null;

  let body;
  if (!plain) body = <LazyMarkdown text={text} variant="preview" />;
  else if (startsLate)
    body = (
      <p>
        …<Marked text={excerpt.text} highlights={excerpt.highlights} />
      </p>
    );
  else body = <HighlightedParagraphs text={text} highlights={highlights} />;

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
        {body}
      </div>
      {excerpt && !plain && <MatchLine excerpt={excerpt} />}
      {(clamped || expanded || startsLate) && (
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={id}
          onClick={() => {
            setExpanded(!expanded);
            onExpandedChange?.(!expanded);
          }}
          className="pointer-events-auto relative z-10 -my-2 -ml-2 inline-flex h-11 min-w-11 items-center self-start rounded-md px-2 text-sm font-medium text-accent outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
        >
          {expanded ? 'Show less' : 'Show more'}
        </button>
      )}
    </>
  );
}
