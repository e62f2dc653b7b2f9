import type { FieldCipher } from '@haven/kit/crypto';
import type { Db, DbOrTx } from '@haven/kit/db';
import { sql } from 'drizzle-orm';
import type { InternalSearchQuery } from '@haven/contracts/internal';
import type { SearchQuery, Thought } from '@haven/contracts/thoughts';
import type { Logger } from '@haven/kit/logger';
import { sameDayEarlierYears } from '../../db/search.repository';
import type { TagSealer } from '../tags';
import { searchContext } from './context';
import type { SearchHashes } from './hashes';
import { createLookup } from './lookup';
import type { MeaningSearch } from './meaning-port';
import { createPlanner } from './plan';
import { createRelated } from './related';
import { createSearchPage } from './search-page';
import { createTextPage, FUSE_DEPTH } from './text-page';
import { createVerifier } from './verify';

export { fuseRanks } from './fusion';

export interface SearchDeps {
  db: Db;
  cipher: FieldCipher;
  tags: TagSealer;
  hashes: SearchHashes;
  /** Search by meaning, or null when no embeddings model is configured. */
  meaning: MeaningSearch | null;
  log: Logger;
  /** VERIFY_ALL_LIMIT and RANK_ALL_LIMIT, smaller in tests so every path runs on a few thoughts. */
  limits?: { verifyAll: number; rankAll: number };
}

/**
 * Up to this many candidates (decrypting one costs ≈ 30 µs), the first page of a query of four
 * characters or more decrypts them
 * all to count the real matches. Beyond, the total is the index's count of candidates, and a rare
 * thought holding all the query's trigrams apart (not the text itself) is counted too. Up to three
 * characters the candidates are exact (their count is the gram's document frequency). Every hit
 * shown is checked against the decrypted text whatever the count.
 */
export const VERIFY_ALL_LIMIT = 300;
/**
 * Beyond this many candidates, a tier is ordered newest first instead of by BM25: a word that
 * common weighs next to nothing, and scoring every candidate would cost more than the page.
 */
export const RANK_ALL_LIMIT = 1000;

/**
 * The search domain. Each call runs in one read transaction that keeps the planner off sequential
 * scans and JIT: it cannot see that a scan decompresses every row's grams (the GIN indexes are
 * much cheaper), and compiling a plan costs more than these queries.
 */
export function createSearch(deps: SearchDeps) {
  const within = <T>(fn: (search: ReturnType<typeof searchOver>) => Promise<T>, meaning = deps.meaning) =>
    deps.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true)`);
      return fn(searchOver({ ...deps, meaning, db: tx }));
    });
  /**
   * Asks the meaning side before the transaction opens (no connection is held while the model
   * answers): the search inside then reads the settled answer.
   */
  const askedFirst = async (userId: number, text: string | null, limit: number) => {
    const model = deps.meaning;
    if (!model || !text) return model;
    const answer = model.search(userId, text, limit);
    await answer.catch(() => undefined);
    const early: MeaningSearch = {
      search: (u, t, l) => (u === userId && t === text && l === limit ? answer : model.search(u, t, l)),
      related: (u, id, l) => model.related(u, id, l),
    };
    return early;
  };
  return {
    /** GET /api/thoughts/search: a tag, a text, or neither (every thought, newest first). */
    page: async (userId: number, query: SearchQuery) =>
      within(
        (s) => s.page(userId, query),
        await askedFirst(userId, query.tag ? null : query.q || null, FUSE_DEPTH),
      ),
    /** The assistant's lookup (see InternalSearchQuery), best first. */
    internal: async (userId: number, query: InternalSearchQuery) =>
      within(
        (s) => s.internal(userId, query),
        await askedFirst(userId, query.match === 'words' ? query.q || null : null, query.limit),
      ),
    /** Thoughts most like one of the user's: by meaning when it has a vector, else by rare words. */
    related: (userId: number, id: number, limit: number) => within((s) => s.related(userId, id, limit)),
    /** The same month and day in earlier years, the latest year first. */
    onThisDay: (userId: number, date: string) => within((s) => s.onThisDay(userId, date)),
  };
}
export type Search = ReturnType<typeof createSearch>;

/** The search of one transaction: its parts built over one context (see SearchContext). */
function searchOver({ limits, ...deps }: Omit<SearchDeps, 'db'> & { db: DbOrTx }) {
  const { verifyAll, rankAll } = limits ?? { verifyAll: VERIFY_ALL_LIMIT, rankAll: RANK_ALL_LIMIT };
  const ctx = searchContext({ ...deps, verifyAll, rankAll });
  const planner = createPlanner(ctx);
  const verifier = createVerifier(ctx, planner);
  return {
    /** GET /api/thoughts/search: a tag, a text, or neither (every thought, newest first). */
    page: createSearchPage(ctx, createTextPage(ctx, planner, verifier)),

    /** The assistant's lookup (see InternalSearchQuery), best first. */
    internal: createLookup(ctx, planner, verifier),

    /** Thoughts most like one of the user's: by meaning when it has a vector, else by rare words. */
    related: createRelated(ctx),

    /** The same month and day in earlier years, the latest year first. */
    onThisDay: async (userId: number, date: string): Promise<Thought[]> =>
      (await sameDayEarlierYears(ctx.db, userId, date)).map(ctx.present),
  };
}
