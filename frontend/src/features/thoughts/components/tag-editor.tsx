import { MAX_TAG_LENGTH, MAX_TAGS } from '@haven/contracts/thoughts';
import { Plus, X } from 'lucide-react';
import { useRef, useState, type KeyboardEvent } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';

interface TagEditorProps {
  tags: string[];
  onChange: (tags: string[]) => void;
  disabled?: boolean;
}

/**
 * Adds `raw` (trimmed, without the `#`s a tag is often typed with: '#Morning Routine' is 'Morning
 * Routine') unless it is blank or already there in any letter case.
 */
export function addTag(tags: string[], raw: string): string[] {
  const tag = raw.trim().replace(/^#+\s*/, '');
  if (!tag || tags.some((t) => t.toLowerCase() === tag.toLowerCase())) return tags;
  return [...tags, tag];
}

/** A tag input with an Add button (Enter adds too) above the current tags as removable chips. */
export function TagEditor({ tags, onChange, disabled = false }: TagEditorProps) {
  const [draft, setDraft] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const full = tags.length >= MAX_TAGS;

  function add() {
    if (!draft.replace(/^\s*#*/, '').trim() || full) return;
    onChange(addTag(tags, draft));
    setDraft('');
    // Add disables itself with the box empty: the focus goes back to the box, not to the page.
    input.current?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    event.preventDefault();
    add();
  }

  return (
    <div className="flex flex-col gap-2.5">
      <div className="flex gap-2">
        <Input
          ref={input}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
          aria-label="Add tag..."
          placeholder={full ? `Up to ${MAX_TAGS} tags` : 'Add tag...'}
          maxLength={MAX_TAG_LENGTH}
          enterKeyHint="done"
          autoCapitalize="none"
          disabled={disabled || full}
          className="h-10"
        />
        <Button variant="outline" onClick={add} disabled={disabled || full || !draft.trim()}>
          <Plus aria-hidden="true" />
          Add
        </Button>
      </div>
      {tags.length > 0 && (
        <ul aria-label="Tags" className="flex flex-wrap gap-1.5">
          {tags.map((tag) => (
            <li key={tag} className="min-w-0">
              <Badge className="max-w-full py-0.5 pr-0.5 pl-2.5 text-sm">
                <span className="truncate">{tag}</span>
                <button
                  type="button"
                  aria-label={`Remove tag ${tag}`}
                  disabled={disabled}
                  onClick={() => onChange(tags.filter((t) => t !== tag))}
                  className="flex size-5 shrink-0 items-center justify-center rounded-full outline-none hover:bg-accent/15 focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50"
                >
                  <X aria-hidden="true" className="!size-3.5" />
                </button>
              </Badge>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
