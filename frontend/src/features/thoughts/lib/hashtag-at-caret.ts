import { MAX_TAG_LENGTH } from '@haven/contracts/thoughts';

/** A tag character, as the server reads `#tags` (letters, marks, digits, `_`, `-`, `/`). */
const TAG_CHAR = /[\p{L}\p{M}\p{N}_\-/]/u;

/**
 * The `#tag` being typed just before the caret: where its `#` is and what follows it so far, or null
 * when the caret is not at the end of one (`#` after a space or at the start, as tags are read).
 * Reads at most a tag's length back from the caret, whatever the text's length.
 */
export function hashtagAtCaret(text: string, caret: number): { start: number; query: string } | null {
  let i = caret;
  const limit = Math.max(0, caret - MAX_TAG_LENGTH - 1);
  while (i > limit && TAG_CHAR.test(text[i - 1]!)) i--;
  if (i === 0 || text[i - 1] !== '#') return null;
  const start = i - 1;
  if (start > 0 && !/\s/.test(text[start - 1]!)) return null;
  return { start, query: text.slice(i, caret) };
}

/** `text` with the `#tag` typed from `start` to `caret` completed to `tag`, and where the caret goes. */
export function completeHashtag(
  text: string,
  start: number,
  caret: number,
  tag: string,
): { text: string; caret: number } {
  const inserted = `#${tag} `;
  const rest = text.slice(caret).replace(/^ /, '');
  return { text: text.slice(0, start) + inserted + rest, caret: start + inserted.length };
}

const WHOLE_TAG = /^[\p{L}\p{M}\p{N}_\-/]+$/u;

/**
 * Tags that start with what is typed (any letter case), most used first, at most `limit`. Only tags
 * a `#` can spell are offered ('Morning Routine', added in the editor, cannot be typed as one).
 */
export function matchingTags(tags: { tag: string }[], query: string, limit = 5): string[] {
  const q = query.toLowerCase();
  return tags
    .map((t) => t.tag)
    .filter((tag) => WHOLE_TAG.test(tag) && tag.toLowerCase().startsWith(q) && tag.toLowerCase() !== q)
    .slice(0, limit);
}
