import { displayCategory, type CaptureCategory } from '@haven/contracts/common';
import type { Thought, UpdateThoughtBody } from '@haven/contracts/thoughts';

export interface ThoughtDraft {
  content: string;
  category: CaptureCategory;
  tags: string[];
}

/** The edit form's starting values: stored legacy categories start on the tab they display as. */
export function draftOf(thought: Thought): ThoughtDraft {
  return { content: thought.content, category: displayCategory(thought.category), tags: thought.tags };
}

/** Only the fields the user changed (content compared trimmed), or null when nothing changed. */
export function changesOf(thought: Thought, draft: ThoughtDraft): UpdateThoughtBody | null {
  const start = draftOf(thought);
  const changes: UpdateThoughtBody = {};
  const content = draft.content.trim();
  if (content !== start.content.trim()) changes.content = content;
  if (draft.category !== start.category) changes.category = draft.category;
  const sameTags =
    draft.tags.length === start.tags.length && draft.tags.every((tag, i) => tag === start.tags[i]);
  if (!sameTags) changes.tags = draft.tags;
  return Object.keys(changes).length > 0 ? changes : null;
}
