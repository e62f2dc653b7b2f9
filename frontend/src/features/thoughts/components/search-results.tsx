import type { Thought } from '@haven/contracts/thoughts';
import { NotebookPen, SearchX } from 'lucide-react';

import { ThoughtCard } from '@/components/thoughts/thought-card';

interface SearchResultsProps {
  results: Thought[];
  /** A query or tag is active. */
  filtering: boolean;
  /** The user has at least one thought. */
  hasAny: boolean;
  onOpen: (thought: Thought) => void;
  /** Filters by a tag tapped on a card. */
  onTag: (tag: string) => void;
}

/** 'Search Results (n)' while filtering, else 'All Thoughts (n)', then the matching cards. */
export function SearchResults({ results, filtering, hasAny, onOpen, onTag }: SearchResultsProps) {
  const heading = `${filtering ? 'Search Results' : 'All Thoughts'} (${results.length})`;
  return (
    <section aria-labelledby="search-results-heading" className="flex flex-col gap-3">
      <h2
        id="search-results-heading"
        className="text-sm font-semibold text-muted-foreground"
        aria-live="polite"
      >
        {heading}
      </h2>
      {results.length === 0 ? (
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
        <ul aria-label="Search results" className="flex flex-col gap-3">
          {results.map((thought) => (
            <li key={thought.id}>
              <ThoughtCard thought={thought} onOpen={onOpen} onTag={onTag} showDate />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
