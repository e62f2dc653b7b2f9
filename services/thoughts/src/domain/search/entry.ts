import { foldText } from './fold';
import type { SearchHashes } from './hashes';
import { boundariesOf, gramsOf, stemOf, wordsOf } from './tokens';

/** A thought's index: its grams (stored in search_grams) and its row's index columns. */
export interface SearchEntry {
  searchGrams: number[];
  searchWords: number[];
  searchTf: number[];
  searchLen: number;
  searchKey: string;
}

/** A row's index columns as read back (its grams are read by id), to take its counts out of the user's totals. */
export type StoredEntry = Pick<SearchEntry, 'searchWords' | 'searchLen'> & {
  searchKey: string | null;
};

/** What of an entry the thought's own row holds (its grams have a table of their own). */
export function rowColumns({ searchGrams: _grams, ...columns }: SearchEntry) {
  return columns;
}

/** The most a count holds (search_tf is a smallint). */
const MAX_TF = 32_767;

function countWords(userId: number, words: string[], hashes: SearchHashes): Map<number, number> {
  const counts = new Map<number, number>();
  const add = (h: number) => counts.set(h, Math.min(MAX_TF, (counts.get(h) ?? 0) + 1));
  for (const word of words) {
    add(hashes.word(userId, word));
    add(hashes.stem(userId, stemOf(word)));
  }
  return counts;
}

/**
 * The index of a thought's text as presented (no voice marker) and tags: the grams and word
 * boundaries of both (a substring of either is found), the words and stems of the content with their counts (whole-word
 * tiers and BM25).
 */
export function buildEntry(
  userId: number,
  content: string,
  tags: string[],
  hashes: SearchHashes,
): SearchEntry {
  const folded = foldText(content);
  const text = [folded, ...tags.map(foldText)].join('\n');
  const grams = [...gramsOf(text)].map((g) => hashes.gram(userId, g));
  const boundaries = [...boundariesOf(text)].map((b) => hashes.boundary(userId, b));
  const words = wordsOf(folded);
  const counts = countWords(userId, words, hashes);
  return {
    searchGrams: [...new Set([...grams, ...boundaries])],
    searchWords: [...counts.keys()],
    searchTf: [...counts.values()],
    searchLen: words.length,
    searchKey: hashes.searchKey,
  };
}

/** An empty index: what a row holds before it is indexed. */
export const NO_ENTRY: StoredEntry = { searchWords: [], searchLen: 0, searchKey: null };
