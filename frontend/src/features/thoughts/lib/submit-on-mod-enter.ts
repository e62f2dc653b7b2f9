import type { KeyboardEvent } from 'react';

/** Ctrl+Enter (Cmd+Enter on a Mac) sends the form, from any field in it. */
export function submitOnModEnter(event: KeyboardEvent<HTMLFormElement>): void {
  if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || event.nativeEvent.isComposing) return;
  event.preventDefault();
  event.currentTarget.requestSubmit();
}
