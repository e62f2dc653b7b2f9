import { stemmer } from 'stemmer';

/**
 * Words and grams of folded text (see fold.ts), as the index stores them (hashed) and queries look
 * them up. The same functions cut both sides, so what they split on matters less than that it is
 * the same: a word is a maximal run of letters and digits ("wife's" is "wife" and "s").
 */
const WORD = /[\p{L}\p{N}]+/gu;
const WORD_CHAR = /[\p{L}\p{N}]/u;

export function wordsOf(folded: string): string[] {
  return folded.match(WORD) ?? [];
}

/** Whether a character (a code point) is part of a word: what a phrase match needs on both sides. */
export const isWordChar = (ch: string | undefined) => ch !== undefined && WORD_CHAR.test(ch);

/** The stem of a folded word (Porter's, for English; other words mostly stay as they are). */
const stems = new Map<string, string>();
export function stemOf(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    stem = /^\p{N}+$/u.test(word) ? word : stemmer(word);
    if (stems.size < 100_000) stems.set(word, stem);
  }
  return stem;
}

/**
 * Every distinct character, bigram and trigram of the folded text, by code point (an emoji is one).
 * Single characters are few per thought and make a one-letter search exact instead of a scan.
 */
export function gramsOf(folded: string): Set<string> {
  const cps = Array.from(folded);
  const grams = new Set<string>(cps);
  for (let i = 0; i + 1 < cps.length; i++) {
    grams.add(cps[i]! + cps[i + 1]!);
    if (i + 2 < cps.length) grams.add(cps[i]! + cps[i + 1]! + cps[i + 2]!);
  }
  return grams;
}

/**
 * The grams a thought must hold to contain the folded query: its trigrams from three code points
 * on, the query itself below (none for an empty one). Up to three code points the grams are exact
 * (a thought holding them holds the query, but for a hash collision); beyond, they may all be there
 * apart, which the check after decryption weeds out.
 */
export function queryGrams(foldedQuery: string): string[] {
  const cps = Array.from(foldedQuery);
  if (cps.length <= 3) return cps.length === 0 ? [] : [foldedQuery];
  const grams = new Set<string>();
  for (let i = 0; i + 2 < cps.length; i++) grams.add(cps[i]! + cps[i + 1]! + cps[i + 2]!);
  return [...grams];
}

/** Code points of a word kept on each side of a boundary between two words. */
const EDGE = 3;
const head = (word: string) => Array.from(word).slice(0, EDGE).join('');
const tail = (word: string) => Array.from(word).slice(-EDGE).join('');

/**
 * Every boundary between two consecutive words of the folded text, whatever separates them
 * (spaces, punctuation, a line break): the last three code points of the first word and the first
 * three of the next ("went home" → "ent hom"; a shorter word whole). A query crossing a boundary
 * names it exactly (see queryBoundaries), which two common words' trigrams apart do not.
 */
export function boundariesOf(folded: string): Set<string> {
  const words = wordsOf(folded);
  const out = new Set<string>();
  for (let i = 0; i + 1 < words.length; i++) out.add(`${tail(words[i]!)} ${head(words[i + 1]!)}`);
  return out;
}

/**
 * The boundaries a thought must hold to contain the folded query. The query's words are
 * consecutive words of any text holding it: its inner words whole, its first word the end of a
 * word (the whole word when the query starts with a separator), its last word the start of one.
 * A boundary is implied when each side is known to its three code points: the word is whole, or
 * it has three code points or more ("ent hom" still finds "went home"; "t ho" implies none).
 */
export function queryBoundaries(foldedQuery: string): string[] {
  const words = wordsOf(foldedQuery);
  const wholeFirst = !isWordChar(Array.from(foldedQuery)[0]);
  const wholeLast = !isWordChar(Array.from(foldedQuery).at(-1));
  const known = (i: number) =>
    Array.from(words[i]!).length >= EDGE || ((i > 0 || wholeFirst) && (i < words.length - 1 || wholeLast));
  const out = new Set<string>();
  for (let i = 0; i + 1 < words.length; i++)
    if (known(i) && known(i + 1)) out.add(`${tail(words[i]!)} ${head(words[i + 1]!)}`);
  return [...out];
}

/**
 * Words a question is made of rather than what it asks about: the assistant's "words" search (any
 * of the words) leaves them out, or every thought with "I" in it would be found.
 */
export const STOP_WORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being ' +
    'below between both but by can could did do does doing done down during each few for from ' +
    'further had has have having he her here hers herself him himself his how i if in into is it its ' +
    'itself just let me more most my myself no nor not now of off on once only or other our ours ' +
    'ourselves out over own same she should so some such than that the their theirs them themselves ' +
    'then there these they this those through to too under until up very was we were what when ' +
    'where which while who whom why will with would you your yours yourself yourselves ' +
    'tell told say said write wrote written writing thought thoughts ever anything something ' +
    'remember find show s t ll d m re ve'
  ).split(' '),
);

/** The words of a folded query worth looking up for "any of these words": no stop words, distinct. */
export function keyWords(folded: string): string[] {
  return [...new Set(wordsOf(folded).filter((w) => !STOP_WORDS.has(w)))];
}
