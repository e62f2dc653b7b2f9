import { useId, useState, type KeyboardEvent, type RefObject } from 'react';

import { useTags } from '@/features/thoughts/api/get-tags';
import { completeHashtag, hashtagAtCaret, matchingTags } from '@/features/thoughts/lib/hashtag-at-caret';

interface HashtagSuggestionsOptions {
  area: RefObject<HTMLTextAreaElement | null>;
  value: string;
  onChange: (value: string) => void;
}

/**
 * The user's existing tags offered while a `#tag` is typed in a text box: Arrow keys move through
 * them, Enter or Tab takes one, Escape closes the list (and only the list); a tap takes one too.
 */
export function useHashtagSuggestions({ area, value, onChange }: HashtagSuggestionsOptions) {
  const listId = useId();
  const [caret, setCaret] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const typing = caret === null ? null : hashtagAtCaret(value, caret);
  const tags = useTags({ enabled: typing !== null });
  const options = typing && dismissedAt !== typing.start ? matchingTags(tags.data ?? [], typing.query) : [];
  const open = options.length > 0;
  const current = Math.min(active, options.length - 1);

  /** Reads where the caret is (after typing, a click, a selection change). */
  function track() {
    const box = area.current;
    if (!box) return;
    const at = box.selectionStart === box.selectionEnd ? box.selectionStart : null;
    if (at !== caret) {
      setCaret(at);
      setActive(0);
    }
  }

  function pick(tag: string) {
    if (!typing || caret === null) return;
    const next = completeHashtag(value, typing.start, caret, tag);
    onChange(next.text);
    setCaret(next.caret);
    requestAnimationFrame(() => {
      area.current?.focus();
      area.current?.setSelectionRange(next.caret, next.caret);
    });
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (!open || event.nativeEvent.isComposing || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + options.length) % options.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      pick(options[current]!);
    } else if (event.key === 'Escape') {
      // Closes the list, not the dialog around it.
      event.stopPropagation();
      setDismissedAt(typing!.start);
    }
  }

  const optionId = (index: number) => `${listId}-${index}`;
  return {
    options,
    active: current,
    listId,
    optionId,
    pick,
    track,
    onKeyDown,
    /** The text box's side of the list's semantics. */
    boxProps: {
      'aria-autocomplete': 'list' as const,
      'aria-controls': open ? listId : undefined,
      'aria-activedescendant': open ? optionId(current) : undefined,
    },
  };
}
