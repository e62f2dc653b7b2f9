import type { FieldCipher } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import type { Embedder } from '@haven/kit/llm';
import type { Logger } from '@haven/kit/logger';
import {
  deleteEmbedding,
  findEmbeddingKey,
  findSource,
  touchEmbedding,
} from '../../db/embeddings.repository';
import type { TagSealer } from '../tags';
import { MeaningCache } from './codes';
import { createFiller } from './fill';
import { WORKER_TIMEOUT_MS } from './limits';
import { createCodesLoader } from './loader';
import { createMeaningSearch } from './nearest';
import { createEmbeddingSources } from './sources';
import { embeddingContext } from '../contexts';

/** Encryption context: a vector only decrypts as an embedding of its own owner's thought. */
export { embeddingContext };
export { CANDIDATES, MAX_EMBEDDED_CHARS, MIN_SCORE, VERSION_CHECK_MS } from './limits';
export { vectorBytes, vectorOfBytes } from './vectors';

export interface MeaningDeps {
  db: Db;
  cipher: FieldCipher;
  tags: TagSealer;
  /** The configured embeddings model, or null: meaning is off (`createMeaning` answers null). */
  embedder: Embedder | null;
  /** The data key: source keys are keyed hashes under a key derived from it. */
  dataKey: string;
  /** Memory for every user's codes, in bytes. */
  cacheBytes: number;
  /** How long a search waits for the model to embed its query (OPENAI_TIMEOUT_MS). */
  queryTimeoutMs?: number;
  log: Logger;
}

/**
 * Search by meaning: each thought's content and tags embedded by the configured model, the vector
 * stored encrypted; a user's first search decrypts their vectors once into int8 codes kept in a
 * bounded in-process cache, and each search scans those codes and compares only its best
 * candidates exactly. Null when no embeddings model is configured.
 */
export function createMeaning(deps: MeaningDeps) {
  const { db, cipher, tags, embedder, log } = deps;
  if (!embedder) return null;
  const model = embedder.model;
  const cache = new MeaningCache(deps.cacheBytes);
  const sources = createEmbeddingSources({ db, cipher, tags, model, dataKey: deps.dataKey, cache });
  const { fill, catchUp } = createFiller({ db, model, embedder, cache, sources, log });
  const codesFor = createCodesLoader({ db, model, cache, open: sources.open });
  const search = createMeaningSearch({
    db,
    model,
    embedder,
    queryTimeoutMs: deps.queryTimeoutMs,
    sources,
    codesFor,
  });
  let sweeping = false;

  return {
    model,
    ...search,

    /**
     * The `thought.embed` job: embeds the thought's current text unless its vector was made from
     * exactly that text by this model; drops the vector of a thought that is gone or has no text.
     * A created thought also catches up the user's other thoughts without a vector (an import).
     */
    async embedThought(userId: number, thoughtId: number, change: 'created' | 'updated' | 'deleted') {
      const row = await findSource(db, userId, thoughtId);
      const text = row ? sources.textOf(row) : '';
      if (!row || !text) {
        if (await deleteEmbedding(db, userId, thoughtId)) cache.changed(userId);
        return;
      }
      const key = sources.sourceKeyOf(userId, text);
      const existing = await findEmbeddingKey(db, userId, thoughtId);
      if (existing?.model === model && existing.sourceKey === key) {
        // Current already (a replayed job, or a change of category): marked so the backfill skips it.
        if (change === 'updated') await touchEmbedding(db, userId, thoughtId);
      } else {
        const [vector] = await embedder.embed([sources.asDocument(text)], { timeoutMs: WORKER_TIMEOUT_MS });
        await sources.store(userId, thoughtId, key, vector!);
      }
      if (change === 'created') await catchUp(userId);
    },

    /**
     * Embeds every user's thoughts that have no current vector (start-up, where workers run). Stops
     * when `signal` aborts; a model that is down is waited for with a growing pause.
     */
    async backfill(signal?: AbortSignal): Promise<number> {
      const embedded = await fill({ signal, retryFailures: true });
      if (embedded > 0) log.info({ embedded, model }, 'thoughts embedded for search by meaning');
      return embedded;
    },

    /**
     * The same, as a periodic sweep: thoughts whose job failed every attempt (a model down for longer
     * than the retries) or that came without an event are embedded within one period. Gives up on
     * the first failure (the next round tries again); skipped while an earlier round still runs.
     */
    async sweep(signal?: AbortSignal): Promise<number> {
      if (sweeping) return 0;
      sweeping = true;
      try {
        const embedded = await fill({ signal, retryFailures: false });
        if (embedded > 0) log.info({ embedded, model }, 'thoughts embedded by the periodic sweep');
        return embedded;
      } finally {
        sweeping = false;
      }
    },

    /** What the in-process cache holds (for tests and the bench). */
    cacheStats: () => ({ bytes: cache.bytes, users: cache.users, budget: cache.budgetBytes }),
  };
}
export type Meaning = NonNullable<ReturnType<typeof createMeaning>>;
