/**
 * The one comparison search uses everywhere: a thought matches when `fold(content).folded` (or the
 * fold of one of its tags) holds `fold(q).folded`. Folding ignores letter case and accents and reads
 * curly quotes as straight ones.
 */
export interface Folded {
  folded: string;
  /**
   * For each UTF-16 unit of `folded`, the index of the unit of the original it came from, plus one
   * last entry (`origin[folded.length]`) holding the original's length: a match [i, j) of `folded`
   * is the span [origin[i], origin[j]) of the original (accents folded away inside it included).
   */
  origin: number[];
}

const MARKS = /\p{M}/gu;
const SINGLE_QUOTES = /[\u2018\u2019\u201B\u2032]/g;
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u2033]/g;

/** One code point folded: decomposed, accents dropped, lower case, quotes straightened. */
function foldCodePoint(cp: string): string {
  return cp
    .normalize('NFD')
    .replace(MARKS, '')
    .toLowerCase()
    .replace(SINGLE_QUOTES, "'")
    .replace(DOUBLE_QUOTES, '"');
}

/** Code points folded by themselves; most text is ASCII, which folds to its lower case. */
const memo = new Map<string, string>();
function foldedCodePoint(cp: string): string {
  let out = memo.get(cp);
  if (out === undefined) {
    out = foldCodePoint(cp);
    if (memo.size < 50_000) memo.set(cp, out);
  }
  return out;
}

export function fold(text: string): Folded {
  let folded = '';
  const origin: number[] = [];
  let at = 0;
  for (const cp of text) {
    const out = foldedCodePoint(cp);
    folded += out;
    for (let k = 0; k < out.length; k++) origin.push(at);
    at += cp.length;
  }
  origin.push(text.length);
  return { folded, origin };
}

/** Only the folded text (indexing and comparing need no origins). */
export function foldText(text: string): string {
  let folded = '';
  for (const cp of text) folded += foldedCodePoint(cp);
  return folded;
}

/** Every start of `needle` in `haystack` (overlapping ones too); none for an empty needle. */
export function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  if (needle.length === 0) return found;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + 1)) found.push(i);
  return found;
}
