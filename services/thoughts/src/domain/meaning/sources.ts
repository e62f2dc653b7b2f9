import { createBlindIndex } from '@haven/kit/blind-index';
import type { FieldCipher } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import {
  findSource,
  upsertEmbedding,
  type SourceRow,
  type StoredVector,
} from '../../db/embeddings.repository';
import { embeddingContext } from '../contexts';
import { contentContext, withoutVoiceMarker } from '../present';
import type { TagSealer } from '../tags';
import type { MeaningCache } from './codes';
import { MAX_EMBEDDED_CHARS } from './limits';
import { vectorBytes, vectorOfBytes } from './vectors';

/**
 * What is embedded for a thought under one model (its text, the key of that text, the model's
 * task prefixes), and its vector stored and opened, encrypted for its owner.
 */
export function createEmbeddingSources(deps: {
  db: Db;
  cipher: FieldCipher;
  tags: TagSealer;
  model: string;
  dataKey: string;
  cache: MeaningCache;
}) {
  const { db, cipher, tags, model, cache } = deps;
  const sourceIndex = createBlindIndex(deps.dataKey, 'embedding-source');
  // nomic-embed-text is trained with these task prefixes and ranks markedly worse without them.
  const nomic = /nomic-embed/i.test(model);
  const asDocument = (text: string) => (nomic ? `search_document: ${text}` : text);
  const asQuery = (text: string) => (nomic ? `search_query: ${text}` : text);

  /** What is embedded for a thought: its text as presented and its tags; empty when it has neither. */
  function textOf(row: SourceRow): string {
    const content = withoutVoiceMarker(cipher.decrypt(row.contentEnc, contentContext(row.userId))).trim();
    const tagList = tags.open(row);
    const text = tagList.length > 0 ? `${content}\n${tagList.map((t) => `#${t}`).join(' ')}` : content;
    return text.trim().slice(0, MAX_EMBEDDED_CHARS);
  }
  const sourceKeyOf = (userId: number, text: string) => sourceIndex(`${userId}:${model}:${text}`);
  const open = (userId: number, row: StoredVector) =>
    vectorOfBytes(cipher.decryptBytes(row.vectorEnc, embeddingContext(userId)));

  /**
   * Stores a vector made from `sourceKey`'s text, if the thought still has that text: its row is
   * held for the check and the write, so an edit meanwhile leaves the vector to the edit's own job.
   */
  async function store(userId: number, thoughtId: number, sourceKey: string, vector: Float32Array) {
    const stored = await db.transaction(async (tx) => {
      const row = await findSource(tx, userId, thoughtId, true);
      if (!row || sourceKeyOf(userId, textOf(row)) !== sourceKey) return false;
      await upsertEmbedding(tx, {
        thoughtId,
        userId,
        model,
        dims: vector.length,
        vectorEnc: cipher.encryptBytes(vectorBytes(vector), embeddingContext(userId)),
        sourceKey,
      });
      return true;
    });
    if (stored) cache.changed(userId);
    return stored;
  }

  return { asDocument, asQuery, textOf, sourceKeyOf, open, store };
}
export type EmbeddingSources = ReturnType<typeof createEmbeddingSources>;
