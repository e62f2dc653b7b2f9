import type { DbOrTx } from '@haven/kit/db';
import { applyCounts } from '../../db/search.repository';
import type { SearchEntry, StoredEntry } from './entry';

/** One row's index before and after a write (null: the row did not exist, or no longer does). */
export interface EntryChange {
  before: StoredEntry | null;
  after: Pick<SearchEntry, 'searchGrams' | 'searchWords' | 'searchLen'> | null;
}

/**
 * Keeps the user's totals (thoughts, words, each word's, stem's and gram's document frequency: BM25
 * weights words by it, and a search of up to three characters counts its matches with it) in step with
 * written rows, in the writer's transaction: the old entry counted out (if it was counted, that
 * is, built under the current key and version), the new one in.
 */
export async function recordChanges(
  tx: DbOrTx,
  userId: number,
  searchKey: string,
  changes: EntryChange[],
): Promise<void> {
  const terms = new Map<number, number>();
  let docs = 0;
  let words = 0;
  const count = (
    entry: { searchGrams: number[]; searchWords: number[]; searchLen: number },
    sign: 1 | -1,
  ) => {
    docs += sign;
    words += sign * entry.searchLen;
    for (const term of entry.searchWords) terms.set(term, (terms.get(term) ?? 0) + sign);
    for (const term of entry.searchGrams) terms.set(term, (terms.get(term) ?? 0) + sign);
  };
  for (const { before, after } of changes) {
    if (before && before.searchKey === searchKey) count(before, -1);
    if (after) count(after, 1);
  }
  if (docs === 0 && words === 0 && [...terms.values()].every((d) => d === 0)) return;
  await applyCounts(tx, userId, { docs, words, terms });
}
