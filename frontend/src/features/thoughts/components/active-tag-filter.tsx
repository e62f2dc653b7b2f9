import { Hash, X } from 'lucide-react';

/** The selected tag filter as a chip with a remove button. */
export function ActiveTagFilter({ tag, onRemove }: { tag: string; onRemove: () => void }) {
  return (
    <div className="flex min-w-0 items-center gap-2 text-sm">
      <span className="shrink-0 text-muted-foreground">Tagged</span>
      <span className="inline-flex h-11 min-w-0 items-center gap-1 rounded-full bg-accent pr-0 pl-3 font-medium text-accent-foreground">
        <Hash aria-hidden="true" className="size-3.5 shrink-0" />
        <span className="truncate">{tag}</span>
        <button
          type="button"
          aria-label={`Remove tag filter ${tag}`}
          onClick={onRemove}
          className="flex size-11 shrink-0 items-center justify-center rounded-full outline-none hover:bg-black/15 focus-visible:ring-2 focus-visible:ring-accent-foreground"
        >
          <X aria-hidden="true" className="size-3.5" />
        </button>
      </span>
    </div>
  );
}
