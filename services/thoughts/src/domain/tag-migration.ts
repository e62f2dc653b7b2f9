import { DecryptionError, type FieldCipher } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import type { Logger } from '@haven/kit/logger';
import { resealTags, tagsToSeal } from '../db/thoughts.repository';
import type { TagSealer } from './tags';

/**
 * Encrypts and indexes every stored tag list that is not yet sealed under the current key: the
 * plaintext tags of rows written before tags were encrypted (SQL cannot encrypt with our key, so
 * migration 0002 only made room), and, after a key rotation, tags whose index was keyed from the old
 * key. Runs at each start, in batches, until none is left or `signal` aborts; a row that cannot be
 * decrypted (its old key is no longer configured) is counted and left as it is.
 */
export async function sealStoredTags(deps: {
  db: Db;
  cipher: FieldCipher;
  tags: TagSealer;
  log: Logger;
  signal?: AbortSignal;
  batchSize?: number;
}): Promise<{ sealed: number; unreadable: number }> {
  const { db, cipher, tags, log, signal, batchSize = 200 } = deps;
  let sealed = 0;
  let unreadable = 0;
  let afterId = 0;
  while (!signal?.aborted) {
    const batch = await tagsToSeal(db, cipher.currentKeyId, afterId, batchSize);
    if (batch.length === 0) break;
    afterId = batch[batch.length - 1]!.id;
    await db.transaction(async (tx) => {
      for (const row of batch) {
        let values;
        try {
          values = tags.seal(row.userId, tags.open(row));
        } catch (err) {
          if (!(err instanceof DecryptionError)) throw err;
          unreadable += 1;
          continue;
        }
        if (await resealTags(tx, row, values)) sealed += 1;
      }
    });
  }
  if (sealed > 0) log.info({ sealed }, 'stored tags encrypted and indexed with the current key');
  if (unreadable > 0) {
    log.warn(
      { unreadable },
      'some stored tags could not be decrypted to re-index them; add their key to DATA_ENCRYPTION_OLD_KEYS and restart',
    );
  }
  return { sealed, unreadable };
}
