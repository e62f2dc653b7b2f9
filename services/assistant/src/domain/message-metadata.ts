import type { FieldCipher } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import type { Logger } from '@haven/kit/logger';
import { metadataToSeal, sealMessageMetadata, type MessageRow } from '../db/conversations.repository';
import { metadataContext } from './contexts';

export type MessageMetadata = Record<string, unknown>;

/**
 * A message's metadata as stored: one encrypted JSON value, like the message's text. An assistant
 * reply's draft and event proposals carry its recipients, subjects and bodies (journal and mail
 * text), so none of it is left readable in the database.
 */
export function sealMetadata(
  cipher: FieldCipher,
  userId: number,
  metadata: MessageMetadata | null | undefined,
): Pick<MessageRow, 'metadataEnc'> {
  return { metadataEnc: metadata ? cipher.encrypt(JSON.stringify(metadata), metadataContext(userId)) : null };
}

/** A stored message's metadata, decrypted (or as written before metadata was encrypted). */
export function openMetadata(
  cipher: FieldCipher,
  row: Pick<MessageRow, 'userId' | 'metadataEnc' | 'legacyMetadata'>,
): MessageMetadata | null {
  if (row.metadataEnc)
    return JSON.parse(cipher.decrypt(row.metadataEnc, metadataContext(row.userId))) as MessageMetadata;
  return row.legacyMetadata ?? null;
}

/**
 * Encrypts the metadata of messages written before it was encrypted (SQL cannot encrypt with our
 * key, so the migration only made room): in batches at each start of a worker process, until none
 * is left or `signal` aborts. Until a row is sealed it reads as it is stored.
 */
export async function sealStoredMetadata(deps: {
  db: Db;
  cipher: FieldCipher;
  log: Logger;
  signal?: AbortSignal;
  batchSize?: number;
}): Promise<number> {
  const { db, cipher, log, signal, batchSize = 200 } = deps;
  let sealed = 0;
  let afterId = 0;
  while (!signal?.aborted) {
    const batch = await metadataToSeal(db, afterId, batchSize);
    if (batch.length === 0) break;
    afterId = batch[batch.length - 1]!.id;
    await db.transaction(async (tx) => {
      for (const row of batch) {
        const { metadataEnc } = sealMetadata(cipher, row.userId, row.legacyMetadata);
        if (metadataEnc && (await sealMessageMetadata(tx, row.id, metadataEnc))) sealed += 1;
      }
    });
  }
  if (sealed > 0) log.info({ sealed }, 'stored message metadata encrypted');
  return sealed;
}
