import type { Db } from '@haven/kit/db';
import { EMBED_BATCH, type Embedder } from '@haven/kit/llm';
import type { Logger } from '@haven/kit/logger';
import {
  deleteEmbedding,
  staleSources,
  touchEmbedding,
  type SourceRow,
} from '../../db/embeddings.repository';
import type { MeaningCache } from './codes';
import { BACKFILL_CONCURRENCY, PAGE, WORKER_TIMEOUT_MS } from './limits';
import type { EmbeddingSources } from './sources';

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

export interface FillOptions {
  userId?: number;
  signal?: AbortSignal;
  retryFailures: boolean;
}

/** A thought without a current vector, with the key and model of the vector it has, if any. */
type StaleRow = Awaited<ReturnType<typeof staleSources>>[number];

/** A thought whose text the model is to embed, with that text's source key. */
interface Todo {
  row: SourceRow;
  text: string;
  key: string;
}

/** Thoughts without a current vector embedded: every user's (the backfill), or one user's (catch-up). */
export function createFiller(deps: {
  db: Db;
  model: string;
  embedder: Embedder;
  cache: MeaningCache;
  sources: EmbeddingSources;
  log: Logger;
}) {
  const { db, model, embedder, cache, sources, log } = deps;

  /**
   * A page of stale rows sorted out: a thought with no text loses its vector, one whose vector is
   * of its current text is marked current, and the others are left for the model.
   */
  async function toEmbed(rows: StaleRow[]): Promise<Todo[]> {
    const todo: Todo[] = [];
    for (const row of rows) {
      const text = sources.textOf(row);
      const key = sources.sourceKeyOf(row.userId, text);
      if (!text) {
        if (row.sourceKey !== null && (await deleteEmbedding(db, row.userId, row.id)))
          cache.changed(row.userId);
      } else if (row.model === model && row.sourceKey === key) {
        await touchEmbedding(db, row.userId, row.id);
        cache.changed(row.userId);
      } else todo.push({ row, text, key });
    }
    return todo;
  }

  /** Embeds `todo` in batches of EMBED_BATCH, a few model calls at once; resolves with the count stored. */
  async function embedAll(todo: Todo[], options: FillOptions): Promise<number> {
    const batches: Todo[][] = [];
    for (let i = 0; i < todo.length; i += EMBED_BATCH) batches.push(todo.slice(i, i + EMBED_BATCH));
    let embedded = 0;
    let next = 0;
    const lane = async () => {
      while (next < batches.length && !options.signal?.aborted) {
        const batch = batches[next++]!;
        for (let pause = 5000; ; pause = Math.min(pause * 2, 300_000)) {
          try {
            const vectors = await embedder.embed(
              batch.map((b) => sources.asDocument(b.text)),
              { timeoutMs: WORKER_TIMEOUT_MS, signal: options.signal },
            );
            for (const [i, b] of batch.entries())
              if (await sources.store(b.row.userId, b.row.id, b.key, vectors[i]!)) embedded++;
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
    return embedded;
  }

  /**
   * Embeds every thought (of one user, or of all) without a current vector, in batches of up to 64
   * texts a model call, a few calls at once. A model that fails is asked again after a growing pause
   * (`retryFailures`) or the error is thrown (a job's retry takes over). Resolves with the count.
   */
  async function fill(options: FillOptions): Promise<number> {
    let afterId = 0;
    let embedded = 0;
    for (;;) {
      if (options.signal?.aborted) return embedded;
      const rows = await staleSources(db, { model, afterId, limit: PAGE, userId: options.userId });
      if (rows.length === 0) return embedded;
      afterId = rows[rows.length - 1]!.id;
      embedded += await embedAll(await toEmbed(rows), options);
    }
  }

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

  return { fill, catchUp };
}
