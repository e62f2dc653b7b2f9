import { createHmac } from 'node:crypto';
import { deriveKey } from '@haven/kit/keys';

/** Bump when what the index stores changes: rows built by another version are rebuilt at start. */
export const INDEX_VERSION = 'v2';

/** Entries kept by the memo before the oldest are dropped (≈ 10 MB at most). */
const MEMO_LIMIT = 100_000;

/**
 * Keyed 32-bit hashes of the index, per user: HMAC-SHA256 of `${userId}:g:${gram}` (a gram),
 * `${userId}:w:${word}` (a whole word), `${userId}:s:${stem}` (a stem) or `${userId}:b:${boundary}`
 * (where two consecutive words meet, see boundariesOf), keyed from the data key,
 * cut to a signed int32. Another user's thoughts never hold the same value for the same text (but
 * for a chance collision, which the substring check after decryption drops), and without the key
 * a value cannot be checked against guessed words.
 */
export function createSearchHashes(dataKey: string, currentKeyId: string) {
  const key = deriveKey(dataKey, 'search-index');
  // Hashing is the cost of indexing (≈ 2 µs each, hundreds per thought); texts repeat their grams
  // and words, so a bounded memo, oldest out first, saves most of it.
  const memo = new Map<string, number>();
  const hash = (value: string): number => {
    let h = memo.get(value);
    if (h === undefined) {
      h = createHmac('sha256', key).update(value, 'utf8').digest().readInt32BE(0);
      if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value!);
      memo.set(value, h);
    }
    return h;
  };
  return {
    /** What `search_key` says of a row this instance indexed: its key and the index version. */
    searchKey: `${currentKeyId}:${INDEX_VERSION}`,
    gram: (userId: number, gram: string) => hash(`${userId}:g:${gram}`),
    word: (userId: number, word: string) => hash(`${userId}:w:${word}`),
    stem: (userId: number, stem: string) => hash(`${userId}:s:${stem}`),
    boundary: (userId: number, boundary: string) => hash(`${userId}:b:${boundary}`),
  };
}
export type SearchHashes = ReturnType<typeof createSearchHashes>;
