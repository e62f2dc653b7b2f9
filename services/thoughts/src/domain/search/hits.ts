import type { Highlight, MatchKind, SearchHit, Thought } from '@haven/contracts/thoughts';
import { fold, foldText } from './fold';
import { isWordChar, stemOf, wordsOf } from './tokens';

/** The search rule: the content or a tag holds the folded query. */
export function matches(thought: Thought, foldedQuery: string): boolean {
  return (
    foldText(thought.content).includes(foldedQuery) ||
    thought.tags.some((tag) => foldText(tag).includes(foldedQuery))
  );
}

/** Non-overlapping occurrences of the folded query in the content, as spans of the content itself. */
function highlightsOf(content: string, foldedQuery: string): { spans: Highlight[]; phrase: boolean } {
  const { folded, origin } = fold(content);
  const spans: Highlight[] = [];
  let phrase = false;
  if (foldedQuery.length === 0) return { spans, phrase };
  const len = foldedQuery.length;
  for (let i = folded.indexOf(foldedQuery); i !== -1; i = folded.indexOf(foldedQuery, i + len)) {
    spans.push({ start: origin[i]!, end: origin[i + len]! });
    const before = i > 0 ? lastCodePoint(folded, i) : undefined;
    const next = folded.codePointAt(i + len);
    const after = next === undefined ? undefined : String.fromCodePoint(next);
    if (!isWordChar(before) && !isWordChar(after)) phrase = true;
  }
  return { spans, phrase };
}

/** The code point that ends just before `at` (a surrogate pair read whole). */
function lastCodePoint(text: string, at: number): string {
  const low = text.charCodeAt(at - 1);
  if (at >= 2 && low >= 0xdc00 && low <= 0xdfff) return text.slice(at - 2, at);
  return text.slice(at - 1, at);
}

/** Whether every word of the query is a whole word of the content, as itself or by its stem. */
function holdsWords(content: string, queryWords: string[]): boolean {
  if (queryWords.length === 0) return false;
  const words = new Set(wordsOf(foldText(content)));
  if (queryWords.every((w) => words.has(w))) return true;
  const stems = new Set([...words].map(stemOf));
  return queryWords.every((w) => stems.has(stemOf(w)));
}

/**
 * A verified match as the overlay shows it: why it matched (a whole-word phrase, all the words,
 * else a substring), where in the content, and which tags hold the query.
 */
export function wordHit(thought: Thought, foldedQuery: string): SearchHit {
  const { spans, phrase } = highlightsOf(thought.content, foldedQuery);
  const queryWords = wordsOf(foldedQuery);
  const match: MatchKind =
    phrase && queryWords.length > 0
      ? 'phrase'
      : holdsWords(thought.content, queryWords)
        ? 'words'
        : 'substring';
  return {
    thought,
    match,
    highlights: spans,
    matchedTags: thought.tags.filter((tag) => foldText(tag).includes(foldedQuery)),
  };
}

/** A hit without a span: a tag, recent, or meaning match. */
export const plainHit = (thought: Thought, match: MatchKind, matchedTags: string[] = []): SearchHit => ({
  thought,
  match,
  highlights: [],
  matchedTags,
});
