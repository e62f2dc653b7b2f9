import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

/** What the history entry of an open search carries, beside whatever the screen put there. */
interface SearchState {
  search?: true;
  /** The tag the search opened filtered by (a tag chip on a card). */
  searchTag?: string;
}

/**
 * Whether the search overlay is open, kept in the browser history: opening it adds an entry on the
 * same screen, so the browser's (or the phone's) Back closes the search and stays on that screen
 * instead of leaving it; closing it from the overlay goes back over that entry.
 */
export function useSearchOverlay(): {
  open: boolean;
  /** The tag it was opened with, if any. */
  tag: string | undefined;
  show: (tag?: string) => void;
  close: () => void;
} {
  const location = useLocation();
  const navigate = useNavigate();
  const state = (location.state ?? null) as (SearchState & Record<string, unknown>) | null;
  const open = state?.search === true;
  const tag = open && typeof state?.searchTag === 'string' ? state.searchTag : undefined;
  const { pathname, search, hash } = location;

  const show = useCallback(
    (withTag?: string) => {
      if (open) return;
      const next = {
        ...state,
        search: true as const,
        searchTag: typeof withTag === 'string' ? withTag : undefined,
      };
      navigate({ pathname, search, hash }, { state: next, preventScrollReset: true });
    },
    [open, navigate, pathname, search, hash, state],
  );

  const close = useCallback(() => {
    if (!open) return;
    // The entry before is this same screen without the search, unless the page was opened on it
    // (a reload keeps history state): then the search is replaced away instead.
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) navigate(-1);
    else {
      const { search: _open, searchTag: _tag, ...rest } = state ?? {};
      navigate({ pathname, search, hash }, { replace: true, state: rest, preventScrollReset: true });
    }
  }, [open, navigate, pathname, search, hash, state]);

  return { open, tag, show, close };
}
