import type { Thought } from '@haven/contracts/thoughts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState, type RefObject } from 'react';

import { ErrorAlert } from '@/components/ui/error-alert';
import { EditThoughtDialog } from '@/features/thoughts/components/edit-thought-dialog';
import { ThoughtListPlaceholder } from '@/components/thoughts/thought-list-placeholder';
import { FullScreenOverlay } from '@/components/ui/full-screen-overlay';
import { useTags } from '@/features/thoughts/api/get-tags';
import {
  searchThoughtsQueryKey,
  searchThoughtsQueryOptions,
  useSearchThoughts,
} from '@/features/thoughts/api/search-thoughts';
import { ActiveTagFilter } from '@/features/thoughts/components/active-tag-filter';
import { PopularTags } from '@/features/thoughts/components/popular-tags';
import { SearchBar } from '@/features/thoughts/components/search-bar';
import { SearchResults } from '@/features/thoughts/components/search-results';
import { useDebouncedValue } from '@/features/thoughts/hooks/use-debounced-value';
import { isFiltering, POPULAR_TAGS, type SearchFilter } from '@/features/thoughts/lib/search-thoughts';

/**
 * Typing waits this long for the next key before searching (it counts in the time to results). A
 * search costs the server a few milliseconds and one overtaken by the next key is cancelled, so a
 * pause between two keys is enough.
 */
const TYPING_PAUSE_MS = 40;

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

const UNFILTERED: SearchFilter = { query: '', tag: null };

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
  const scrollRoot = useRef<HTMLDivElement>(null);
  const queryClient = useQueryClient();
  // The server is asked once typing pauses; clearing the text shows everything again at once.
  // The first page is asked for the moment typing pauses, while the panel is drawn again.
  const settledQuery = useDebouncedValue(
    query,
    TYPING_PAUSE_MS,
    (text) => text.trim() === '',
    (text) => {
      if (tag === null)
        void queryClient.prefetchInfiniteQuery(searchThoughtsQueryOptions({ query: text, tag }));
    },
  );
  const filter: SearchFilter = { query: tag !== null ? '' : settledQuery, tag };
  const filtering = isFiltering(filter);
  const search = useSearchThoughts(filter);
  const tags = useTags();

  const pickTag = useCallback((picked: string) => {
    setTag(picked);
    setQuery('');
    scrollRoot.current?.scrollTo({ top: 0 });
  }, []);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = search;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const { first, hits, shownFiltering, meaning, hasAny } = useShownResults(search, filter, filtering);

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
      <div
        ref={scrollRoot}
        className="flex flex-1 flex-col gap-6 overflow-y-auto overscroll-contain px-4 pt-4 pb-[calc(2rem+env(safe-area-inset-bottom))]"
      >
        {tag !== null && <ActiveTagFilter tag={tag} onRemove={() => setTag(null)} />}
        {!isFiltering({ query, tag }) && tags.data && (
          <PopularTags tags={tags.data.slice(0, POPULAR_TAGS)} onPick={pickTag} />
        )}
        {first === undefined && search.isError ? (
          <ErrorAlert>{search.error.message}</ErrorAlert>
        ) : first === undefined ? (
          <ThoughtListPlaceholder count={3} />
        ) : (
          <div
            aria-busy={search.isPlaceholderData}
            // The last results dim only if the next ones are slow to come: a quick answer replaces
            // them without a repaint of the dimmed list first (which costs a phone a frame or two).
            className={
              search.isPlaceholderData ? 'opacity-70 transition-opacity delay-200 duration-150' : undefined
            }
          >
            <SearchResults
              hits={hits}
              total={first.total}
              filtering={shownFiltering}
              meaning={meaning}
              hasAny={hasAny}
              hasMore={hasNextPage}
              loadingMore={isFetchingNextPage}
              moreError={search.isFetchNextPageError ? search.error.message : null}
              loadMore={loadMore}
              scrollRoot={scrollRoot}
              onOpen={setEditing}
              onTag={pickTag}
            />
          </div>
        )}
      </div>
      <EditThoughtDialog thought={editing} onClose={() => setEditing(null)} />
    </>
  );
}

/**
 * What the results list shows of `search`: its hits (a thought once, though two pages hold it), the
 * first page, the heading and note of the results on screen, and whether the user has any thought.
 */
function useShownResults(
  search: ReturnType<typeof useSearchThoughts>,
  filter: SearchFilter,
  filtering: boolean,
) {
  const queryClient = useQueryClient();
  const pages = search.data?.pages;
  const first = pages?.[0];
  // The same array while the pages are the same, so typing does not draw the results again.
  const hits = useMemo(() => {
    const seen = new Set<number>();
    return (pages ?? [])
      .flatMap((page) => page.hits)
      .filter(({ thought }) => !seen.has(thought.id) && !!seen.add(thought.id));
  }, [pages]);
  // Whether the user has any thought at all: known from the unfiltered list once it has loaded.
  const everything = queryClient.getQueryData<{ pages: { total: number }[] }>(
    searchThoughtsQueryKey(UNFILTERED),
  );
  // While the last results stand in for the next ones, their heading and note stay as they were.
  const shownFiltering = useOfShownResults(filtering, search.isPlaceholderData);
  const meaning = useOfShownResults(
    filter.tag === null && filter.query.trim() !== '' ? (first?.meaning ?? null) : null,
    search.isPlaceholderData,
  );
  const hasAny = filtering ? (everything?.pages[0]?.total ?? 1) > 0 : (first?.total ?? 0) > 0;
  return { first, hits, shownFiltering, meaning, hasAny };
}

/**
 * `value` as it was when the results on screen were new: while they stand in for the next search's
 * (`placeholder`), what is true of that search does not show over them (and the list is not drawn
 * again before the answer comes).
 */
function useOfShownResults<T>(value: T, placeholder: boolean): T {
  const [shown, setShown] = useState(value);
  if (!placeholder && !Object.is(shown, value)) setShown(value);
  return placeholder ? shown : value;
}
