import type { DbOrTx } from '@haven/kit/db';
import { applyCounts, gramsOf, saveGrams } from '../../db/search.repository';
import type { SearchEntry, StoredEntry } from './entry';

/** One row's index before and after a write (null: the row did not exist, or no longer does). */
export interface EntryChange {
  /** The thought written. */
  id: number;
  before: StoredEntry | null;
  after: SearchEntry | null;
}

/**
 * Keeps the user's index in step with written rows, in the writer's transaction: each new entry's
 * grams stored, and the totals (thoughts, words, each word's, stem's and gram's document
 * frequency: BM25 weights words by it, and a search of up to three characters counts its matches
 * with it) with the old entry counted out (if it was counted, that is, built under the current key
 * and version; its grams are read back before they are replaced) and the new one in. A thought
 * being deleted is recorded before its row goes (its grams go with it).
 */
export async function recordChanges(
  tx: DbOrTx,
  userId: number,
  searchKey: string,
  changes: EntryChange[],
): Promise<void> {
  const counted = changes.filter((c) => c.before !== null && c.before.searchKey === searchKey);
  const oldGrams = await gramsOf(
    tx,
    userId,
    counted.map((c) => c.id),
  );
  const terms = new Map<number, number>();
  let docs = 0;
  let words = 0;
  const count = (entry: { searchWords: number[]; searchLen: number }, grams: number[], sign: 1 | -1) => {
    docs += sign;
    words += sign * entry.searchLen;
    for (const term of entry.searchWords) terms.set(term, (terms.get(term) ?? 0) + sign);
    for (const term of grams) terms.set(term, (terms.get(term) ?? 0) + sign);
  };
  for (const { id, before } of counted) count(before!, oldGrams.get(id) ?? [], -1);
  for (const { after } of changes) if (after) count(after, after.searchGrams, 1);
  await saveGrams(
    tx,
    userId,
    changes.flatMap((c) => (c.after ? [{ thoughtId: c.id, grams: c.after.searchGrams }] : [])),
  );
  if (docs === 0 && words === 0 && [...terms.values()].every((d) => d === 0)) return;
  await applyCounts(tx, userId, { docs, words, terms });
}
