import type { Thought } from '@haven/contracts/thoughts';
import { useRef, useState, type RefObject } from 'react';

import { ErrorAlert } from '@/components/ui/error-alert';
import { EditThoughtDialog } from '@/features/thoughts/components/edit-thought-dialog';
import { ThoughtListPlaceholder } from '@/components/thoughts/thought-list-placeholder';
import { FullScreenOverlay } from '@/components/ui/full-screen-overlay';
import { useAllThoughts } from '@/features/thoughts/api/get-all-thoughts';
import { ActiveTagFilter } from '@/features/thoughts/components/active-tag-filter';
import { PopularTags } from '@/features/thoughts/components/popular-tags';
import { SearchBar } from '@/features/thoughts/components/search-bar';
import { SearchResults } from '@/features/thoughts/components/search-results';
import { isFiltering, popularTags, searchThoughts } from '@/features/thoughts/lib/search-thoughts';

interface SearchOverlayProps {
  open: boolean;
  onClose: () => void;
  /** Opens filtered by this tag (a tag chip on a card was tapped). */
  tag?: string;
}

/** Full-screen search over all the user's thoughts, opened from the header's search button. */
export function SearchOverlay({ open, onClose, tag }: SearchOverlayProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  return (
    <FullScreenOverlay open={open} onClose={onClose} label="Search" initialFocusRef={inputRef}>
      {/* Mounted only while open, so each search starts empty. */}
      <SearchPanel onClose={onClose} inputRef={inputRef} initialTag={tag} />
    </FullScreenOverlay>
  );
}

function SearchPanel({
  onClose,
  inputRef,
  initialTag,
}: {
  onClose: () => void;
  inputRef: RefObject<HTMLInputElement | null>;
  initialTag: string | undefined;
}) {
  const [query, setQuery] = useState('');
  const [tag, setTag] = useState<string | null>(initialTag ?? null);
  const [editing, setEditing] = useState<Thought | null>(null);
  const thoughts = useAllThoughts();
  const filter = { query, tag };
  const filtering = isFiltering(filter);

  return (
    <>
      <SearchBar
        query={query}
        // Typing starts a text search, so a selected tag (which would take precedence) is dropped.
        onQueryChange={(next) => {
          setQuery(next);
          setTag(null);
        }}
        canClear={filtering || query !== ''}
        onClear={() => {
          setQuery('');
          setTag(null);
        }}
        onClose={onClose}
        inputRef={inputRef}
      />
      <div className="flex flex-1 flex-col gap-6 overflow-y-auto overscroll-contain px-4 pt-4 pb-[calc(2rem+env(safe-area-inset-bottom))]">
        {tag !== null && <ActiveTagFilter tag={tag} onRemove={() => setTag(null)} />}
        {thoughts.isPending ? (
          <ThoughtListPlaceholder count={3} />
        ) : thoughts.isError ? (
          <ErrorAlert>{thoughts.error.message}</ErrorAlert>
        ) : (
          <>
            {!filtering && (
              <PopularTags
                tags={popularTags(thoughts.data)}
                onPick={(picked) => {
                  setTag(picked);
                  setQuery('');
                }}
              />
            )}
            <SearchResults
              results={searchThoughts(thoughts.data, filter)}
              filtering={filtering}
              hasAny={thoughts.data.length > 0}
              onOpen={setEditing}
              onTag={(picked) => {
                setTag(picked);
                setQuery('');
              }}
            />
          </>
        )}
      </div>
      <EditThoughtDialog thought={editing} onClose={() => setEditing(null)} />
    </>
  );
}
