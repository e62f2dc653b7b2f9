import type { MeaningStatus, SearchHit, Thought } from '@haven/contracts/thoughts';
import { NotebookPen, SearchX } from 'lucide-react';
import { memo, useEffect, useRef, useState, type RefObject } from 'react';

import { ThoughtCard } from '@/components/thoughts/thought-card';
import { Button } from '@/components/ui/button';
import { RelatedThoughts } from '@/features/thoughts/components/related-thoughts';

interface SearchResultsProps {
  hits: SearchHit[];
  /** How many thoughts match in all. */
  total: number;
  /** A query or tag is active. */
  filtering: boolean;
  /** Whether search by meaning took part, for a text search (null for a tag or no filter). */
  meaning: MeaningStatus | null;
  /** The user has at least one thought. */
  hasAny: boolean;
  /** More pages follow; `loadMore` asks for the next one. */
  hasMore: boolean;
  loadingMore: boolean;
  /** The next page failed (its error message). */
  moreError: string | null;
  loadMore: () => void;
  /** The scrolling box the list is in: the next page is asked for as its end comes near. */
  scrollRoot: RefObject<HTMLElement | null>;
  onOpen: (thought: Thought) => void;
  /** Filters by a tag tapped on a card. */
  onTag: (tag: string) => void;
}

/** Cards of new results drawn in their first frame (a phone shows about four); the rest follow. */
const FIRST_FRAME_CARDS = 4;

/**
 * How many of the hits to draw: for new results (another first hit), the first few in the frame
 * they arrive in and all of them from the next, so the first cards show without waiting for the
 * rest; for more of the same results (a next page), all at once.
 */
function useCardsShown(hits: SearchHit[]): number {
  const lead = hits[0]?.thought.id;
  const [shown, setShown] = useState({ lead, all: false });
  if (shown.lead !== lead) setShown({ lead, all: false });
  const pending = shown.lead === lead && !shown.all;
  useEffect(() => {
    if (!pending) return;
    // After the frame with the first cards is painted.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setShown((s) => (s.lead === lead ? { lead, all: true } : s)));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [pending, lead]);
  return pending || shown.lead !== lead ? Math.min(hits.length, FIRST_FRAME_CARDS) : hits.length;
}

const MEANING_NOTES: Record<Exclude<MeaningStatus, 'on'>, string> = {
  off: 'Searching by words only: no meaning model is set up on this server.',
  down: 'The meaning model did not answer, so these are word matches only.',
};

/**
 * 'Search Results (n)' while filtering, else 'All Thoughts (n)', then the matching cards with their
 * matches marked, a page at a time: the next page loads as the end of the list scrolls into view
 * (or with 'Load more').
 */
export const SearchResults = memo(function SearchResults({
  hits,
  total,
  filtering,
  meaning,
  hasAny,
  hasMore,
  loadingMore,
  moreError,
  loadMore,
  scrollRoot,
  onOpen,
  onTag,
}: SearchResultsProps) {
  const heading = `${filtering ? 'Search Results' : 'All Thoughts'} (${total})`;
  const sentinel = useRef<HTMLDivElement>(null);
  const shown = useCardsShown(hits);
  // Not while the first cards are drawn alone: the end of the list would look near.
  const wantMore = hasMore && !loadingMore && moreError === null && shown === hits.length;

  useEffect(() => {
    const element = sentinel.current;
    if (!element || !wantMore) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) loadMore();
      },
      { root: scrollRoot.current, rootMargin: '0px 0px 600px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [wantMore, loadMore, scrollRoot, hits.length]);

  return (
    <section aria-labelledby="search-results-heading" className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <h2
          id="search-results-heading"
          className="text-sm font-semibold text-muted-foreground"
          aria-live="polite"
        >
          {heading}
        </h2>
        {meaning !== null && meaning !== 'on' && (
          <p className="text-xs text-muted-foreground">{MEANING_NOTES[meaning]}</p>
        )}
      </div>
      {hits.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed px-6 py-10 text-center">
          {hasAny ? (
            <SearchX aria-hidden="true" className="size-8 text-muted-foreground/60" />
          ) : (
            <NotebookPen aria-hidden="true" className="size-8 text-muted-foreground/60" />
          )}
          <p className="font-medium text-balance">
            {hasAny ? 'No thoughts match your search.' : "You haven't recorded any thoughts yet."}
          </p>
        </div>
      ) : (
        <>
          <ResultList hits={hits} shown={shown} onOpen={onOpen} onTag={onTag} />
          <div ref={sentinel} aria-hidden="true" />
          {moreError !== null && <p className="text-sm text-destructive">{moreError}</p>}
          {hasMore && (
            <Button variant="outline" className="h-11 self-center" onClick={loadMore} disabled={loadingMore}>
              {loadingMore ? 'Loading…' : moreError !== null ? 'Try again' : 'Load more'}
            </Button>
          )}
        </>
      )}
    </section>
  );
});

/**
 * The result cards, drawn again only when the results change (not as the heading or the text
 * does), so typing and the search's start are not held up by redrawing them.
 */
const ResultList = memo(function ResultList({
  hits,
  shown,
  onOpen,
  onTag,
}: {
  hits: SearchHit[];
  /** How many of them to draw (see useCardsShown). */
  shown: number;
  onOpen: (thought: Thought) => void;
  onTag: (tag: string) => void;
}) {
  return (
    <ul aria-label="Search results" className="flex flex-col gap-3">
      {hits.slice(0, shown).map((hit) => (
        // Cards out of view are laid out only when scrolled to.
        <li key={hit.thought.id} className="[contain-intrinsic-size:auto_8rem] [content-visibility:auto]">
          <ThoughtCard
            thought={hit.thought}
            onOpen={onOpen}
            onTag={onTag}
            showDate
            highlights={hit.highlights}
            matchedTags={hit.matchedTags}
            note={hit.match === 'meaning' ? 'by meaning' : undefined}
            renderExpanded={() => <RelatedThoughts thought={hit.thought} onOpen={onOpen} />}
          />
        </li>
      ))}
    </ul>
  );
});
