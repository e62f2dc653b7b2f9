import { DecryptionError, type FieldCipher } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import type { Logger } from '@haven/kit/logger';
import { recountUser, rowsToIndex, setIndexIfUnchanged, type RowToIndex } from '../../db/search.repository';
import { contentContext, withoutVoiceMarker } from '../present';
import type { TagSealer } from '../tags';
import { rowColumns } from './entry';
import type { SearchWriter } from './writer';

/** A row's index rebuilt from its text, or null when the text cannot be decrypted. */
function rebuild(row: RowToIndex, cipher: FieldCipher, tags: TagSealer, search: SearchWriter) {
  try {
    const content = withoutVoiceMarker(cipher.decrypt(row.contentEnc, contentContext(row.userId)));
    return search.entry(row.userId, content, tags.open(row));
  } catch (err) {
    if (err instanceof DecryptionError) return null;
    throw err;
  }
}

/**
 * Builds the search index of every row not indexed under the current key and index version: rows
 * from before the index, and after a key rotation (or a new version) all of them. Runs at each
 * start, in batches, until none is left or `signal` aborts; a row that cannot be decrypted is
 * counted and left. A never-indexed row only adds to its user's totals; a user with rows re-keyed
 * has their totals counted again at the end (the old hashes' counts mean nothing under the new key).
 */
export async function indexStoredThoughts(deps: {
  db: Db;
  cipher: FieldCipher;
  tags: TagSealer;
  search: SearchWriter;
  log: Logger;
  signal?: AbortSignal;
  batchSize?: number;
}): Promise<{ indexed: number; unreadable: number }> {
  const { db, cipher, tags, search, log, signal, batchSize = 500 } = deps;
  const searchKey = search.hashes.searchKey;
  const rekeyed = new Set<number>();
  let indexed = 0;
  let unreadable = 0;
  let afterId = 0;
  while (!signal?.aborted) {
    const batch = await rowsToIndex(db, searchKey, afterId, batchSize);
    if (batch.length === 0) break;
    afterId = batch[batch.length - 1]!.id;
    const built = batch.map((row) => ({ row, entry: rebuild(row, cipher, tags, search) }));
    unreadable += built.filter((b) => b.entry === null).length;
    await db.transaction(async (tx) => {
      const byUser = new Map<number, Parameters<SearchWriter['record']>[2]>();
      for (const { row, entry } of built) {
        if (!entry || !(await setIndexIfUnchanged(tx, row, rowColumns(entry)))) continue;
        indexed += 1;
        if (row.searchKey !== null) rekeyed.add(row.userId);
        const changes = byUser.get(row.userId) ?? [];
        changes.push({ id: row.id, before: row, after: entry });
        byUser.set(row.userId, changes);
      }
      for (const [userId, changes] of [...byUser].sort((a, b) => a[0] - b[0]))
        await search.record(tx, userId, changes);
    });
  }
  for (const userId of rekeyed) {
    if (signal?.aborted) break;
    await db.transaction((tx) => recountUser(tx, userId, searchKey));
  }
  if (indexed > 0) log.info({ indexed }, 'stored thoughts indexed for search');
  if (unreadable > 0)
    log.warn(
      { unreadable },
      'some thoughts could not be decrypted to index them for search; add their key to DATA_ENCRYPTION_OLD_KEYS and restart',
    );
  return { indexed, unreadable };
}
