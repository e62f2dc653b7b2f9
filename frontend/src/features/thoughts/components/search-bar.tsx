import { Search, X } from 'lucide-react';
import type { RefObject } from 'react';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';

interface SearchBarProps {
  query: string;
  onQueryChange: (query: string) => void;
  /** Shows the Clear button (a query or a tag is active). */
  canClear: boolean;
  onClear: () => void;
  onClose: () => void;
  inputRef: RefObject<HTMLInputElement | null>;
}

/** The overlay's top bar: the search field with its Clear button, and Close. */
export function SearchBar({ query, onQueryChange, canClear, onClear, onClose, inputRef }: SearchBarProps) {
  return (
    <div className="flex items-center gap-1 border-b px-3 pt-[calc(0.5rem+env(safe-area-inset-top))] pb-2">
      <div className="relative min-w-0 flex-1">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
        />
        <Input
          ref={inputRef}
          type="search"
          value={query}
          onChange={(event) => onQueryChange(event.target.value)}
          aria-label="Search thoughts"
          placeholder="Search thoughts or tags..."
          enterKeyHint="search"
          autoComplete="off"
          className="pr-18 pl-9 [&::-webkit-search-cancel-button]:appearance-none"
        />
        {canClear && (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              onClear();
              inputRef.current?.focus();
            }}
            className="absolute top-1/2 right-1.5 -translate-y-1/2 text-muted-foreground"
          >
            Clear
          </Button>
        )}
      </div>
      <Button variant="ghost" size="icon" aria-label="Close search" onClick={onClose}>
        <X aria-hidden="true" className="!size-5" />
      </Button>
    </div>
  );
}
