import type { DbOrTx } from '@haven/kit/db';
import { buildEntry, type SearchEntry } from './entry';
import { recordChanges, type EntryChange } from './counts';
import type { SearchHashes } from './hashes';

/**
 * What a write needs of the search index: a thought's index columns for its text as presented and
 * its tags, and the user's totals kept in step, in the write's own transaction.
 */
export function createSearchWriter(hashes: SearchHashes) {
  return {
    hashes,
    entry: (userId: number, content: string, tags: string[]): SearchEntry =>
      buildEntry(userId, content, tags, hashes),
    record: (tx: DbOrTx, userId: number, changes: EntryChange[]) =>
      recordChanges(tx, userId, hashes.searchKey, changes),
  };
}
export type SearchWriter = ReturnType<typeof createSearchWriter>;
