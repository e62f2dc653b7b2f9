import { isRegExpSpace } from './unicode';

/*
 * The character-level helpers of the prose passes (prose-inline.ts): blanking spans, searching
 * ahead once per pass, and the character classes the regexes they replace used.
 */

/** `text` with the spans ([start, end, …], in order, not overlapping) replaced by as many spaces. */
export function blankSpans(text: string, spans: number[]): string {
  const parts: string[] = [];
  let kept = 0;
  let k = 0;
  while (k < spans.length) {
    const start = spans[k]!;
    let end = spans[k + 1]!;
    k += 2;
    // Spans that touch are blanked as one (a line of `%%%%…` makes a span every four characters).
    while (k < spans.length && spans[k] === end) {
      end = spans[k + 1]!;
      k += 2;
    }
    parts.push(text.slice(kept, start), ' '.repeat(end - start));
    kept = end;
  }
  parts.push(text.slice(kept));
  return parts.join('');
}

/**
 * `search` (an indexOf, -1 for none) asked at non-decreasing starts: the first hit at or after
 * `from`, Infinity for none. A hit answers every later start up to it, so all the searches of one
 * pass read the line at most once (searching again from each start is what made it quadratic).
 */
export function ahead(search: (from: number) => number): (from: number) => number {
  let hit = -1;
  return (from) => {
    if (from > hit) {
      const found = search(from);
      hit = found === -1 ? Infinity : found;
    }
    return hit;
  };
}

export const isSpace = isRegExpSpace;

/** What a regex's `.` does not match. */
export const isLineBreak = (c: number) => c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;
export const isLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
/** `\w` (ASCII, as in a regex without the `u` flag), for `\b`. */
export const isWord = (c: number) => isLetter(c) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
/** `[a-z0-9+.-]` with the `i` flag: a URL scheme. */
export const isScheme = (c: number) => (isWord(c) && c !== 0x5f) || c === 0x2b || c === 0x2e || c === 0x2d;
/** `[\s<>()]`: what ends a URL. */
export const endsUrl = (c: number) => isSpace(c) || c === 0x3c || c === 0x3e || c === 0x28 || c === 0x29;
/** A word boundary before `i` when `text[i]` is a word character. */
export const boundaryBefore = (text: string, i: number) => i === 0 || !isWord(text.charCodeAt(i - 1));

export function nextLineBreak(text: string, from: number): number {
  for (let i = from; i < text.length; i++) if (isLineBreak(text.charCodeAt(i))) return i;
  return -1;
}

/** Whether `text` has `word` (lower case ASCII) at `at`, in any case. */
export function hasWordAt(text: string, word: string, at: number): boolean {
  if (at + word.length > text.length) return false;
  for (let k = 0; k < word.length; k++) {
    const c = text.charCodeAt(at + k);
    // Only an ASCII letter's case bit maps it onto a lower case letter.
    if ((isLetter(c) ? c | 0x20 : c) !== word.charCodeAt(k)) return false;
  }
  return true;
}
