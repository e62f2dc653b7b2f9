import { Hash } from 'lucide-react';

import { cn } from '@/lib/utils';

interface TagSuggestionsProps {
  listId: string;
  optionId: (index: number) => string;
  options: string[];
  active: number;
  onPick: (tag: string) => void;
}

/** The user's tags matching the `#tag` being typed, under the text box; 44 px rows for a thumb. */
export function TagSuggestions({ listId, optionId, options, active, onPick }: TagSuggestionsProps) {
  if (options.length === 0) return null;
  return (
    <ul
      id={listId}
      role="listbox"
      aria-label="Tag suggestions"
      className="absolute inset-x-0 top-full z-20 mt-1 overflow-hidden rounded-lg border bg-card py-1 shadow-lg"
    >
      {options.map((tag, index) => (
        <li
          key={tag}
          id={optionId(index)}
          role="option"
          aria-selected={index === active}
          // Keeps the focus (and the phone's keyboard) in the text box.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onPick(tag)}
          className={cn(
            'flex min-h-11 cursor-pointer items-center gap-2 px-3 text-base',
            index === active ? 'bg-accent-soft text-foreground' : 'text-foreground hover:bg-muted',
          )}
        >
          <Hash aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
          <span className="truncate">{tag}</span>
        </li>
      ))}
    </ul>
  );
}
