import { createBlindIndex } from '@haven/kit/blind-index';
import type { FieldCipher } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import { EMBED_BATCH, type Embedder } from '@haven/kit/llm';
import type { Logger } from '@haven/kit/logger';
import {
  deleteEmbedding,
  embeddingVersion,
  findEmbeddingKey,
  findSource,
  staleSources,
  touchEmbedding,
  upsertEmbedding,
  vectorIds,
  vectorsByIds,
  vectorsSince,
  type SourceRow,
  type StoredVector,
} from '../../db/embeddings.repository';
import { contentContext, withoutVoiceMarker } from '../present';
import type { MeaningSearch } from '../search/meaning-port';
import type { TagSealer } from '../tags';
import { MeaningCache, UserCodes } from './codes';
import { embeddingContext } from '../contexts';
export { embeddingContext };

/** Encryption context: a vector only decrypts as an embedding of its own owner's thought. */

/** The longest text embedded (a thought's content and tags), in characters: about 2,000 tokens. */
export const MAX_EMBEDDED_CHARS = 8000;

/**
 * The lowest cosine similarity a hit may have. With OpenAI's text-embedding-3 models texts on
 * unrelated subjects score about 0.0–0.2 and paraphrases 0.4 and above; with the stand-in model
 * unrelated texts score 0. Below 0.25 a "hit" is noise that would only push word matches down in
 * the fused ranking. (Models whose unrelated texts score higher, such as nomic-embed-text at
 * 0.3–0.5, let a few more through; the fusion ranks them after the close ones.)
 */
export const MIN_SCORE = 0.25;

/** Candidates taken from the codes before their exact vectors are compared. */
export const CANDIDATES = 200;

/** How often (at most) a search compares the stored version of the user's vectors with its codes. */
export const VERSION_CHECK_MS = 1000;

/** How far back a refresh re-reads vectors, so one committed late with an earlier clock is not missed. */
const REFRESH_OVERLAP_MS = 5000;

/** Rows read per query when building a user's codes or looking for thoughts to embed. */
const PAGE = 2000;

/** Model calls the backfill keeps in flight at once. */
const BACKFILL_CONCURRENCY = 2;

/** How long a worker's model call may take (a batch of 64 texts on a slow local model). */
const WORKER_TIMEOUT_MS = 60_000;

export function vectorBytes(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

export function vectorOfBytes(bytes: Buffer): Float32Array {
  const v = new Float32Array(bytes.byteLength / 4);
  new Uint8Array(v.buffer).set(bytes);
  return v;
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

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
  const sourceIndex = createBlindIndex(deps.dataKey, 'embedding-source');
  const cache = new MeaningCache(deps.cacheBytes);
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

  /**
   * Embeds every thought (of one user, or of all) without a current vector, in batches of up to 64
   * texts a model call, a few calls at once. A model that fails is asked again after a growing pause
   * (`retryFailures`) or the error is thrown (a job's retry takes over). Resolves with the count.
   */
  async function fill(options: {
    userId?: number;
    signal?: AbortSignal;
    retryFailures: boolean;
  }): Promise<number> {
    let afterId = 0;
    let embedded = 0;
    for (;;) {
      if (options.signal?.aborted) return embedded;
      const rows = await staleSources(db, { model, afterId, limit: PAGE, userId: options.userId });
      if (rows.length === 0) return embedded;
      afterId = rows[rows.length - 1]!.id;
      const todo: Array<{ row: SourceRow; text: string; key: string }> = [];
      for (const row of rows) {
        const text = textOf(row);
        const key = sourceKeyOf(row.userId, text);
        if (!text) {
          if (row.sourceKey !== null && (await deleteEmbedding(db, row.userId, row.id)))
            cache.changed(row.userId);
        } else if (row.model === model && row.sourceKey === key) {
          await touchEmbedding(db, row.userId, row.id);
          cache.changed(row.userId);
        } else todo.push({ row, text, key });
      }
      const batches: Array<typeof todo> = [];
      for (let i = 0; i < todo.length; i += EMBED_BATCH) batches.push(todo.slice(i, i + EMBED_BATCH));
      let next = 0;
      const lane = async () => {
        while (next < batches.length && !options.signal?.aborted) {
          const batch = batches[next++]!;
          for (let pause = 5000; ; pause = Math.min(pause * 2, 300_000)) {
            try {
              const vectors = await embedder!.embed(
                batch.map((b) => asDocument(b.text)),
                { timeoutMs: WORKER_TIMEOUT_MS, signal: options.signal },
              );
              for (const [i, b] of batch.entries())
                if (await store(b.row.userId, b.row.id, b.key, vectors[i]!)) embedded++;
              break;
            } catch (err) {
              if (options.signal?.aborted) return;
              if (!options.retryFailures) throw err;
              log.warn({ err, retryInMs: pause }, 'embedding thoughts failed; trying again');
              await sleep(pause, options.signal);
            }
          }
        }
      };
      await Promise.all(Array.from({ length: BACKFILL_CONCURRENCY }, lane));
    }
  }

  let sweeping = false;

  /** Per user, a catch-up running in this process, and whether another was asked for meanwhile. */
  const catchingUp = new Map<number, { again: boolean; done: Promise<number> }>();

  /** Embeds whatever of the user's thoughts has no current vector (imports emit one event a day). */
  function catchUp(userId: number): Promise<number> {
    const running = catchingUp.get(userId);
    if (running) {
      running.again = true;
      return running.done;
    }
    const state = { again: false, done: Promise.resolve(0) };
    state.done = (async () => {
      let total = 0;
      try {
        do {
          state.again = false;
          total += await fill({ userId, retryFailures: false });
        } while (state.again);
      } finally {
        catchingUp.delete(userId);
      }
      return total;
    })();
    catchingUp.set(userId, state);
    return state.done;
  }

  /**
   * Decrypts all the user's vectors once into codes: their ids first, then the vectors by id a page
   * at a time (primary-key lookups, whatever else the table holds), so only a page is in memory.
   */
  async function build(userId: number): Promise<UserCodes> {
    // Read first: whatever is written while the pages are read is newer, and the next check sees it.
    const version = await embeddingVersion(db, userId, model);
    const ids = (await vectorIds(db, userId, model)).sort((a, b) => a - b);
    const entry = new UserCodes(ids.length);
    for (let i = 0; i < ids.length; i += PAGE)
      for (const row of await vectorsByIds(db, userId, model, ids.slice(i, i + PAGE)))
        entry.put(row.thoughtId, open(userId, row), true);
    entry.latest = version.latest;
    entry.checkedAt = Date.now();
    return entry;
  }

  /** Brings the codes up to the stored vectors: the changed ones re-read, the deleted ones dropped. */
  async function refresh(userId: number, entry: UserCodes): Promise<void> {
    const version = await embeddingVersion(db, userId, model);
    entry.checkedAt = Date.now();
    if (version.count === entry.n && version.latest === entry.latest) return;
    if (version.latest !== entry.latest && version.latest !== null) {
      const since = entry.latest
        ? new Date(Date.parse(entry.latest) - REFRESH_OVERLAP_MS).toISOString()
        : '1970-01-01T00:00:00Z';
      const rows = await vectorsSince(db, userId, model, since);
      entry.putMany(rows.map((row) => ({ id: row.thoughtId, vector: open(userId, row) })));
    }
    if (version.count !== entry.n) {
      const stored = new Set(await vectorIds(db, userId, model));
      const held = entry.idSet();
      for (const id of held) if (!stored.has(id)) entry.remove(id);
      const missing = [...stored].filter((id) => !held.has(id));
      for (let i = 0; i < missing.length; i += PAGE) {
        const rows = await vectorsByIds(db, userId, model, missing.slice(i, i + PAGE));
        entry.putMany(rows.map((row) => ({ id: row.thoughtId, vector: open(userId, row) })));
      }
    }
    entry.latest = version.latest;
  }

  /** Codes being built or refreshed, per user: concurrent searches wait for the same work. */
  const loading = new Map<number, Promise<UserCodes>>();

  function codesFor(userId: number): Promise<UserCodes> {
    const held = cache.get(userId);
    if (held && Date.now() - held.checkedAt < VERSION_CHECK_MS) return Promise.resolve(held);
    let pending = loading.get(userId);
    if (!pending) {
      pending = (async () => {
        const entry = held ?? (await build(userId));
        if (held) await refresh(userId, held);
        cache.keep(userId, entry);
        return entry;
      })().finally(() => loading.delete(userId));
      loading.set(userId, pending);
    }
    return pending;
  }

  /** The user's thoughts nearest `query`: candidates from the codes, ranked by their exact vectors. */
  async function nearest(userId: number, query: Float32Array, limit: number, exclude?: number) {
    const entry = await codesFor(userId);
    if (entry.n === 0 || entry.dims !== query.length) return [];
    const candidates = entry.nearest(query, Math.max(CANDIDATES, limit * 4), exclude);
    const rows = await vectorsByIds(db, userId, model, candidates);
    return rows
      .map((row) => ({ id: row.thoughtId, score: dot(query, open(userId, row)) }))
      .filter((hit) => hit.score >= MIN_SCORE)
      .sort((a, b) => b.score - a.score || b.id - a.id)
      .slice(0, limit)
      .map((hit) => ({ id: hit.id, score: Math.round(hit.score * 10_000) / 10_000 }));
  }

  const search: MeaningSearch = {
    async search(userId, text, limit) {
      const [query] = await embedder.embed([asQuery(text.slice(0, MAX_EMBEDDED_CHARS))], {
        timeoutMs: deps.queryTimeoutMs,
      });
      return nearest(userId, query!, limit);
    },
    async related(userId, thoughtId, limit) {
      const [row] = await vectorsByIds(db, userId, model, [thoughtId]);
      if (!row) return null;
      return nearest(userId, open(userId, row), limit, thoughtId);
    },
  };

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
      const text = row ? textOf(row) : '';
      if (!row || !text) {
        if (await deleteEmbedding(db, userId, thoughtId)) cache.changed(userId);
        return;
      }
      const key = sourceKeyOf(userId, text);
      const existing = await findEmbeddingKey(db, userId, thoughtId);
      if (existing?.model === model && existing.sourceKey === key) {
        // Current already (a replayed job, or a change of category): marked so the backfill skips it.
        if (change === 'updated') await touchEmbedding(db, userId, thoughtId);
      } else {
        const [vector] = await embedder.embed([asDocument(text)], { timeoutMs: WORKER_TIMEOUT_MS });
        await store(userId, thoughtId, key, vector!);
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
