import { useId, useLayoutEffect, useRef } from 'react';

import { MAX_CONTENT_LENGTH } from '@haven/contracts/thoughts';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { TagSuggestions } from '@/features/thoughts/components/tag-suggestions';
import { useHashtagSuggestions } from '@/features/thoughts/hooks/use-hashtag-suggestions';

interface KeyboardPanelProps {
  value: string;
  onChange: (value: string) => void;
  /** The id of the character count, once it shows. */
  describedBy?: string;
  /** Over the length limit. */
  invalid?: boolean;
}

/**
 * Keyboard mode: one text area, focused with the caret after any text as soon as the mode is chosen.
 * Typing `#` offers the user's existing tags.
 */
export function KeyboardPanel({ value, onChange, describedBy, invalid }: KeyboardPanelProps) {
  const id = useId();
  const ref = useRef<HTMLTextAreaElement>(null);
  const suggestions = useHashtagSuggestions({ area: ref, value, onChange });

  // Also after a forced switch (microphone failure), so typing can continue where speech left off.
  // Before the browser takes its next input: the transcript box it replaces held the focus, and a key
  // pressed between the swap and a later focus would land on the page, not in the text.
  useLayoutEffect(() => {
    const area = ref.current;
    if (!area) return;
    area.focus();
    area.setSelectionRange(area.value.length, area.value.length);
  }, []);

  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>Your thought</Label>
      <div className="relative">
        <Textarea
          ref={ref}
          id={id}
          placeholder="What's on your mind? #tags become tags"
          rows={5}
          // About as tall as the voice panel, so switching modes does not make the dialog jump.
          className="min-h-54"
          maxLength={MAX_CONTENT_LENGTH}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          {...suggestions.boxProps}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={suggestions.onKeyDown}
          onSelect={suggestions.track}
          onKeyUp={suggestions.track}
          onClick={suggestions.track}
        />
        <TagSuggestions
          listId={suggestions.listId}
          optionId={suggestions.optionId}
          options={suggestions.options}
          active={suggestions.active}
          onPick={suggestions.pick}
        />
      </div>
    </div>
  );
}
