import type { Db } from '@haven/kit/db';
import type { Embedder } from '@haven/kit/llm';
import { vectorsByIds } from '../../db/embeddings.repository';
import type { MeaningSearch } from '../search/meaning-port';
import { CANDIDATES, MAX_EMBEDDED_CHARS, MIN_SCORE } from './limits';
import type { CodesFor } from './loader';
import type { EmbeddingSources } from './sources';
import { dot } from './vectors';

/** The search side of meaning: a query's or a thought's nearest thoughts among the user's codes. */
export function createMeaningSearch(deps: {
  db: Db;
  model: string;
  embedder: Embedder;
  /** How long a search waits for the model to embed its query (OPENAI_TIMEOUT_MS). */
  queryTimeoutMs?: number;
  sources: EmbeddingSources;
  codesFor: CodesFor;
}): MeaningSearch {
  const { db, model, embedder, sources, codesFor } = deps;

  /** The user's thoughts nearest `query`: candidates from the codes, ranked by their exact vectors. */
  async function nearest(userId: number, query: Float32Array, limit: number, exclude?: number) {
    const entry = await codesFor(userId);
    if (entry.n === 0 || entry.dims !== query.length) return [];
    const candidates = entry.nearest(query, Math.max(CANDIDATES, limit * 4), exclude);
    const rows = await vectorsByIds(db, userId, model, candidates);
    return rows
      .map((row) => ({ id: row.thoughtId, score: dot(query, sources.open(userId, row)) }))
      .filter((hit) => hit.score >= MIN_SCORE)
      .sort((a, b) => b.score - a.score || b.id - a.id)
      .slice(0, limit)
      .map((hit) => ({ id: hit.id, score: Math.round(hit.score * 10_000) / 10_000 }));
  }

  return {
    async search(userId, text, limit) {
      const [query] = await embedder.embed([sources.asQuery(text.slice(0, MAX_EMBEDDED_CHARS))], {
        timeoutMs: deps.queryTimeoutMs,
      });
      return nearest(userId, query!, limit);
    },
    async related(userId, thoughtId, limit) {
      const [row] = await vectorsByIds(db, userId, model, [thoughtId]);
      if (!row) return null;
      return nearest(userId, sources.open(userId, row), limit, thoughtId);
    },
  };
}
