import type { InternalSearchQuery } from '@haven/contracts/internal';
import type { RelatedAnswer, SearchHit, SearchPage, SearchQuery, Thought } from '@haven/contracts/thoughts';
import type { FieldCipher } from '@haven/kit/crypto';
import type { Db, DbOrTx } from '@haven/kit/db';
import { sql } from 'drizzle-orm';
import { notFound } from '@haven/kit/errors';
import type { Logger } from '@haven/kit/logger';
import {
  candidateRows,
  countCandidates,
  pageRecent,
  pageWithTagToken,
  periodRows,
  rankAnyTerms,
  rankCandidates,
  tierCandidates,
  rarestTerms,
  rowsByIds,
  sameDayEarlierYears,
  termFrequencies,
  userStats,
  wordsOfThought,
  type SubstringQuery,
  type WeightedTerms,
} from '../../db/search.repository';
import { idsWithTagToken, type ThoughtListRow } from '../../db/thoughts.repository';
import { contentContext, presentThought, withoutVoiceMarker } from '../present';
import { normaliseTag, type TagSealer } from '../tags';
import { decodeCursor, encodeCursor, searchHash, type SearchCursor } from './cursor';
import { foldText } from './fold';
import type { SearchHashes } from './hashes';
import { matches, plainHit, wordHit } from './hits';
import type { MeaningSearch } from './meaning-port';
import { keyWords, queryBoundaries, queryGrams, stemOf, wordsOf } from './tokens';

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
/** The most ids of a tier read whole that a page keeps for its further rounds (see candidatesFrom). */
const TIER_IDS_KEPT = 20_000;
/** Thoughts the assistant's "any of these words" scores at most before it narrows (rankByWords). */
const ANY_WORDS_SCORED = 3000;
/** Candidates one page checks at most before it answers with fewer hits (see verifiedFrom). */
const SCAN_LIMIT = 1000;
/** How deep the word and meaning results go into the first page's fusion. */
const FUSE_DEPTH = 50;
/** Reciprocal rank fusion's constant. */
const RRF_K = 60;
/** How many of a thought's rarest words "related" looks for. */
const RELATED_TERMS = 10;

/** Query terms weighted by BM25's idf: ln(1 + (N − df + ½) / (df + ½)). */
function weigh(
  terms: number[],
  df: Map<number, number>,
  stats: { docs: number; avgLen: number },
): WeightedTerms {
  return {
    terms,
    idf: terms.map((t) => {
      const n = df.get(t) ?? 0;
      return Math.log(1 + (stats.docs - n + 0.5) / (n + 0.5));
    }),
    avgLen: stats.avgLen,
  };
}

/** Ids fused by reciprocal rank (k = 60), best first; ties keep the first list's order. */
export function fuseRanks(first: number[], second: number[]): number[] {
  const score = new Map<number, number>();
  const order = new Map<number, number>();
  [first, second].forEach((list, l) =>
    list.forEach((id, rank) => {
      score.set(id, (score.get(id) ?? 0) + 1 / (RRF_K + rank + 1));
      if (!order.has(id)) order.set(id, l * 1_000_000 + rank);
    }),
  );
  return [...score.keys()].sort((a, b) => score.get(b)! - score.get(a)! || order.get(a)! - order.get(b)!);
}

const distinct = <T>(xs: T[]) => [...new Set(xs)];

/**
 * About how many candidates hold all the words (tier 1), all the stems but not the words (2), or
 * neither (3), from the document frequencies: exact for one word, an estimate for more.
 */
function tierSizes(
  bound: number,
  words: number[],
  stems: number[],
  df: Map<number, number>,
): [number, number, number] {
  if (words.length === 0) return [0, 0, bound];
  const fewest = (terms: number[]) => Math.min(...terms.map((t) => df.get(t) ?? 0));
  const withWords = Math.min(bound, fewest(words));
  const withStems = Math.min(bound, Math.max(fewest(stems), withWords));
  return [withWords, withStems - withWords, bound - withStems];
}

/** A query as the index runs it (see planQuery). */
interface Plan {
  q: SubstringQuery;
  folded: string;
  /** How many candidates (about, with no grams or a date range). */
  bound: number;
  /** Whether `bound` is exactly the number of candidates by the index's own count. */
  exact: boolean;
  /** Many candidates: each tier newest first (see RANK_ALL_LIMIT). */
  tiered: boolean;
  /** About how many candidates each tier has (which way to find its newest). */
  tierSizes: [number, number, number];
  /** How many thoughts the user has indexed. */
  docs: number;
  /** Not tiered: every candidate's id in rank order, once asked for (see candidatesFrom). */
  ranked?: number[];
  /** Tiered: a tier's ids newest first, once read whole through the indexes (see candidatesFrom). */
  tierIds?: number[][];
}

/** Where word results continue: the rank `o`, within tier `k` when ranked tier by tier. */
interface WordPosition {
  o: number;
  k?: number;
}

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

function searchOver({
  db,
  cipher,
  tags,
  hashes,
  meaning,
  log,
  limits,
}: Omit<SearchDeps, 'db'> & { db: DbOrTx }) {
  const { verifyAll, rankAll } = limits ?? { verifyAll: VERIFY_ALL_LIMIT, rankAll: RANK_ALL_LIMIT };
  const present = (row: ThoughtListRow) => presentThought(row, cipher, tags);

  /** The user's thoughts of these ids, presented, in the order given (absent ones left out). */
  async function presentIds(userId: number, ids: number[]): Promise<Thought[]> {
    const byId = new Map((await rowsByIds(db, userId, ids)).map((r) => [r.id, r]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [present(row)] : [];
    });
  }

  /**
   * What the index is asked for a folded query (its grams, words and stems, hashed for this user),
   * with at most how many candidates it has (the fewest thoughts holding one of its grams) and
   * whether that number is exact (a query of up to three characters is its own gram).
   */
  async function planQuery(
    userId: number,
    folded: string,
    range?: { start: string; end: string },
  ): Promise<Plan> {
    const words = distinct(wordsOf(folded));
    const stems = distinct(words.map((w) => hashes.stem(userId, stemOf(w))));
    // The boundaries between its words narrow a phrase of common words, whose trigrams are each
    // in most thoughts, to nearly the thoughts holding it (see queryBoundaries).
    const grams = [
      ...queryGrams(folded).map((g) => hashes.gram(userId, g)),
      ...queryBoundaries(folded).map((b) => hashes.boundary(userId, b)),
    ];
    const wordTerms = words.map((w) => hashes.word(userId, w));
    const [df, stats] = await Promise.all([
      termFrequencies(db, userId, [...stems, ...grams, ...wordTerms]),
      userStats(db, userId),
    ]);
    const oneWord = words.length === 1 && words[0] === folded;
    const q = { grams, words: wordTerms, stems, oneWord, weights: weigh(stems, df, stats), range };
    const exact = grams.length === 1 && Array.from(folded).length <= 3 && !folded.includes('\n') && !range;
    // Up to three characters the gram's count is the candidates'; with no grams (a query folding to
    // nothing) it is all. Beyond, the rarest gram's count bounds them: when that is few enough for
    // the total to check them all, it is the bound; else count them (the GIN index intersects the
    // trigrams).
    const rarest = Math.min(...grams.map((g) => df.get(g) ?? 0));
    const bound = exact
      ? (df.get(grams[0]!) ?? 0)
      : grams.length === 0
        ? stats.docs
        : rarest <= verifyAll
          ? rarest
          : await countCandidates(db, userId, q);
    return {
      q,
      folded,
      bound,
      exact,
      tiered: bound > rankAll,
      tierSizes: tierSizes(bound, wordTerms, stems, df),
      docs: stats.docs,
    };
  }

  /** One round of candidates from a position, in rank order. */
  async function candidatesFrom(
    userId: number,
    plan: Plan,
    tier: number | undefined,
    at: number,
    size: number,
  ) {
    // Up to RANK_ALL_LIMIT candidates are ranked all at once (scoring them is most of the cost of
    // any page of them), so that the rounds of a page that checks more cost no more queries.
    if (tier === undefined) {
      plan.ranked ??= (await rankCandidates(db, userId, plan.q, 0, rankAll)).map((r) => r.id);
      return plan.ranked.slice(at, at + size);
    }
    const t = tier as 1 | 2 | 3;
    // Walking the date index reads about docs / tierSize rows per hit, in date order; the GIN
    // indexes and a sort read every row of the tier. Walk when that is the fewer rows.
    const tierSize = plan.tierSizes[t - 1]!;
    const kept = plan.tierIds?.[t - 1];
    if (kept) return kept.slice(at, at + size);
    if (tierSize > rankAll && tierSize * tierSize >= plan.docs * (at + size))
      return tierCandidates(db, userId, plan.q, t, at, size, true);
    // A tier found through the indexes is read and sorted whole whatever part of it is asked for:
    // its ids are kept for the page's further rounds (unless there are too many to keep).
    const ids = await tierCandidates(db, userId, plan.q, t, 0, TIER_IDS_KEPT, false);
    if (ids.length === TIER_IDS_KEPT) return ids.slice(at, at + size);
    (plan.tierIds ??= [])[t - 1] = ids;
    return ids.slice(at, at + size);
  }

  /**
   * Verified word results from a position: up to `want` hits, and where the next page starts (the
   * position of the first verified hit after them), or null when there is none.
   */
  async function verifiedFrom(
    userId: number,
    plan: Plan,
    from: WordPosition,
    want: number,
    skip: Set<number> = new Set(),
  ): Promise<{ hits: SearchHit[]; next: WordPosition | null }> {
    const hits: SearchHit[] = [];
    // A tier 1 or 2 with no candidates (a word or stem no thought holds) is not even asked.
    const skipEmpty = (t: number): number => (t < 3 && plan.tierSizes[t - 1] === 0 ? skipEmpty(t + 1) : t);
    let tier = plan.tiered ? skipEmpty(from.k ?? 1) : undefined;
    let at = from.o;
    // Candidates that fail the check are skipped: each round asks for twice as many (up to 8×).
    let size = Math.max(want + 5, 10);
    let scanned = 0;
    for (;;) {
      const ids = await candidatesFrom(userId, plan, tier, at, size);
      scanned += ids.length;
      const thoughts = new Map((await presentIds(userId, ids)).map((t) => [t.id, t]));
      for (const [i, id] of ids.entries()) {
        const thought = thoughts.get(id);
        if (!thought || skip.has(id) || !matches(thought, plan.folded)) continue;
        if (hits.length === want) return { hits, next: { o: at + i, k: tier } };
        hits.push(wordHit(thought, plan.folded));
      }
      if (ids.length === size) at += ids.length;
      else if (tier === undefined || tier === 3) return { hits, next: null };
      else {
        tier = skipEmpty(tier + 1);
        at = 0;
      }
      // Bounded work per page: past SCAN_LIMIT candidates that mostly fail the check (a phrase of
      // common words), the page ends with what it found and its cursor goes on from there.
      if (scanned >= SCAN_LIMIT && (hits.length > 0 || scanned >= 4 * SCAN_LIMIT))
        return { hits, next: { o: at, k: tier } };
      size = Math.min(size * 2, (want + 5) * 8);
    }
  }

  /** How many thoughts match (see VERIFY_ALL_LIMIT for when this is the index's count). */
  async function wordTotal(userId: number, plan: Plan): Promise<number> {
    if (plan.exact || plan.bound > verifyAll) return plan.bound;
    const rows = await candidateRows(db, userId, plan.q);
    // The content first; the tags (another decryption) only when it does not hold the query.
    return rows.filter(
      (row) =>
        foldText(withoutVoiceMarker(cipher.decrypt(row.contentEnc, contentContext(userId)))).includes(
          plan.folded,
        ) || tags.open(row).some((tag) => foldText(tag).includes(plan.folded)),
    ).length;
  }

  /** Words only: a page of verified hits from the cursor's rank on. */
  async function wordsPage(
    userId: number,
    hash: string,
    folded: string,
    cursor: SearchCursor | undefined,
    limit: number,
    status: SearchPage['meaning'],
    skip?: Set<number>,
  ): Promise<SearchPage> {
    const plan = await planQuery(userId, folded);
    const [page, total] = await Promise.all([
      verifiedFrom(userId, plan, { o: cursor?.o ?? 0, k: cursor?.k }, limit, skip),
      cursor ? cursor.t : wordTotal(userId, plan),
    ]);
    const next = page.next === null ? null : encodeCursor({ ...page.next, t: total, h: hash, f: cursor?.f });
    return { hits: page.hits, total, nextCursor: next, meaning: status };
  }

  /**
   * With meaning: the first ~50 word results fused with meaning's first ~50 (reciprocal rank), then
   * the word results beyond, leaving out what meaning brought. Thoughts only meaning found count
   * into the total. Later pages fuse again (the same answer) to know where they are.
   */
  async function fusedPage(
    userId: number,
    hash: string,
    folded: string,
    cursor: SearchCursor | undefined,
    limit: number,
    found: Array<{ id: number }>,
  ): Promise<SearchPage> {
    const plan = await planQuery(userId, folded);
    const meaningIds = found.map((f) => f.id);
    const skip = new Set(meaningIds);
    if (cursor && cursor.m === undefined) return wordsPage(userId, hash, folded, cursor, limit, 'on', skip);
    const [top, total, meaningThoughts] = await Promise.all([
      verifiedFrom(userId, plan, { o: 0 }, FUSE_DEPTH),
      cursor ? cursor.t : wordTotal(userId, plan),
      presentIds(userId, meaningIds),
    ]);
    const hitOf = new Map(top.hits.map((h) => [h.thought.id, h]));
    let meaningOnly = 0;
    for (const thought of meaningThoughts) {
      if (hitOf.has(thought.id)) continue;
      const byWords = matches(thought, folded);
      if (!byWords) meaningOnly += 1;
      hitOf.set(thought.id, byWords ? wordHit(thought, folded) : plainHit(thought, 'meaning'));
    }
    const merged = fuseRanks(
      top.hits.map((h) => h.thought.id),
      meaningThoughts.map((t) => t.id),
    ).map((id) => hitOf.get(id)!);
    const from = cursor?.m ?? 0;
    const hits = merged.slice(from, from + limit);
    const grandTotal = cursor ? cursor.t : total + meaningOnly;
    if (from + limit < merged.length)
      return {
        hits,
        total: grandTotal,
        nextCursor: encodeCursor({
          ...(top.next ?? { o: 0 }),
          m: from + limit,
          t: grandTotal,
          h: hash,
          f: 1,
        }),
        meaning: 'on',
      };
    if (top.next === null) return { hits, total: grandTotal, nextCursor: null, meaning: 'on' };
    const shown = new Set([...skip, ...merged.map((h) => h.thought.id)]);
    const rest = await verifiedFrom(userId, plan, top.next, limit - hits.length, shown);
    const nextCursor =
      rest.next === null ? null : encodeCursor({ ...rest.next, t: grandTotal, h: hash, f: 1 });
    return { hits: [...hits, ...rest.hits], total: grandTotal, nextCursor, meaning: 'on' };
  }

  /** Search text given: word results, fused with meaning's on the first page when it answers. */
  async function textPage(userId: number, text: string, cursor: SearchCursor | undefined, limit: number) {
    const hash = searchHash(text, undefined);
    const folded = foldText(text);
    if (!meaning) return wordsPage(userId, hash, folded, cursor, limit, 'off');
    let found: Array<{ id: number }>;
    try {
      found = await meaning.search(userId, text, FUSE_DEPTH);
    } catch (err) {
      log.warn({ err }, 'search by meaning did not answer; words only');
      return wordsPage(
        userId,
        hash,
        folded,
        cursor?.m === undefined ? cursor : { ...cursor, m: undefined },
        limit,
        'down',
      );
    }
    return fusedPage(userId, hash, folded, cursor, limit, found);
  }

  /** A page of a simple newest-first list (a tag's thoughts, or all of them). */
  function listPage(
    page: { rows: ThoughtListRow[]; total: number },
    offset: number,
    limit: number,
    hash: string,
    hit: (t: Thought) => SearchHit,
  ): SearchPage {
    const more = offset + limit < page.total && page.rows.length === limit;
    return {
      hits: page.rows.map((row) => hit(present(row))),
      total: page.total,
      nextCursor: more ? encodeCursor({ o: offset + limit, t: page.total, h: hash }) : null,
      meaning: meaning ? 'on' : 'off',
    };
  }

  return {
    /** GET /api/thoughts/search: a tag, a text, or neither (every thought, newest first). */
    async page(userId: number, query: SearchQuery): Promise<SearchPage> {
      const hash = searchHash(query.q, query.tag || undefined);
      const cursor = query.cursor ? decodeCursor(query.cursor, hash) : undefined;
      const offset = cursor?.o ?? 0;
      if (query.tag) {
        const wanted = normaliseTag(query.tag);
        const page = await pageWithTagToken(db, userId, tags.tokenOf(userId, wanted), offset, query.limit);
        return listPage(page, offset, query.limit, hash, (t) =>
          plainHit(
            t,
            'tag',
            t.tags.filter((tag) => normaliseTag(tag) === wanted),
          ),
        );
      }
      if (!query.q) {
        return listPage(await pageRecent(db, userId, offset, query.limit), offset, query.limit, hash, (t) =>
          plainHit(t, 'recent'),
        );
      }
      return textPage(userId, query.q, cursor, query.limit);
    },

    /** The assistant's lookup (see InternalSearchQuery), best first. */
    async internal(userId: number, query: InternalSearchQuery): Promise<Thought[]> {
      const range = query.start && query.end ? { start: query.start, end: query.end } : undefined;
      if (!query.q)
        return range ? (await periodRows(db, userId, range.start, range.end, query.limit)).map(present) : [];
      const folded = foldText(query.q);
      const terms = keyWords(folded);
      if (query.match === 'words' && terms.length > 0)
        return anyWords(userId, query.q, terms, query.limit, range);
      return phrase(userId, folded, query.q, query.limit, range);
    },

    /** Thoughts most like one of the user's: by meaning when it has a vector, else by rare words. */
    async related(userId: number, id: number, limit: number): Promise<RelatedAnswer> {
      const own = await wordsOfThought(db, userId, id);
      if (!own) throw notFound('Thought not found');
      if (meaning) {
        const alike = await meaning.related(userId, id, limit + 1).catch((err: unknown) => {
          log.warn({ err }, 'related by meaning did not answer; by words');
          return null;
        });
        if (alike) {
          const ids = alike
            .map((a) => a.id)
            .filter((other) => other !== id)
            .slice(0, limit);
          return {
            basis: 'meaning',
            hits: (await presentIds(userId, ids)).map((t) => plainHit(t, 'meaning')),
          };
        }
      }
      const rare = await rarestTerms(db, userId, own.searchWords, 2, RELATED_TERMS);
      const stats = await userStats(db, userId);
      const weights = weigh(
        rare.map((r) => r.term),
        new Map(rare.map((r) => [r.term, r.df])),
        stats,
      );
      const ids = await rankAnyTerms(db, userId, weights, { limit, exclude: id });
      return { basis: 'words', hits: (await presentIds(userId, ids)).map((t) => plainHit(t, 'words')) };
    },

    /** The same month and day in earlier years, the latest year first. */
    onThisDay: async (userId: number, date: string): Promise<Thought[]> =>
      (await sameDayEarlierYears(db, userId, date)).map(present),
  };

  /** Exact tag first (newest first), then the ranked substring matches. */
  async function phrase(
    userId: number,
    folded: string,
    text: string,
    limit: number,
    range?: { start: string; end: string },
  ): Promise<Thought[]> {
    const inRange = (t: Thought) => !range || (t.localDate >= range.start && t.localDate <= range.end);
    const taggedIds = await idsWithTagToken(db, userId, tags.tokenOf(userId, text));
    const tagged = (await presentIds(userId, taggedIds))
      .filter(inRange)
      .sort((a, b) => b.date.localeCompare(a.date) || b.id - a.id)
      .slice(0, limit);
    const plan = await planQuery(userId, folded, range);
    const rest = await verifiedFrom(
      userId,
      plan,
      { o: 0 },
      limit - tagged.length,
      new Set(tagged.map((t) => t.id)),
    );
    return [...tagged, ...rest.hits.map((h) => h.thought)];
  }

  /**
   * The best BM25 over the query's terms among thoughts holding any of them, without scoring every
   * such thought when the words are common: the thoughts holding all of them first (they score
   * highest), then those holding any of the rarer ones (up to ANY_WORDS_SCORED thoughts' worth).
   */
  async function rankByWords(
    userId: number,
    weights: WeightedTerms,
    df: Map<number, number>,
    limit: number,
    range?: { start: string; end: string },
  ): Promise<number[]> {
    const byRarity = [...weights.terms].sort((a, b) => (df.get(a) ?? 0) - (df.get(b) ?? 0));
    const sum = byRarity.reduce((n, t) => n + (df.get(t) ?? 0), 0);
    if (sum <= ANY_WORDS_SCORED) return rankAnyTerms(db, userId, weights, { limit, ...range });
    const all = await rankAnyTerms(db, userId, weights, {
      limit,
      ...range,
      holding: { terms: weights.terms, all: true },
    });
    if (all.length >= limit) return all;
    // The rarest term always; the next ones while their thoughts fit in the budget.
    let budget = ANY_WORDS_SCORED - (df.get(byRarity[0]!) ?? 0);
    const rarer = [byRarity[0]!, ...byRarity.slice(1).filter((t) => (budget -= df.get(t) ?? 0) >= 0)];
    const any = await rankAnyTerms(db, userId, weights, {
      limit,
      ...range,
      holding: { terms: rarer, all: false },
    });
    return distinct([...all, ...any]).slice(0, limit);
  }

  /** Any of the words (stems), BM25 over them, fused with meaning when it answers. */
  async function anyWords(
    userId: number,
    text: string,
    words: string[],
    limit: number,
    range?: { start: string; end: string },
  ): Promise<Thought[]> {
    const stems = distinct(words.map((w) => hashes.stem(userId, stemOf(w))));
    const [df, stats] = await Promise.all([termFrequencies(db, userId, stems), userStats(db, userId)]);
    const [byWords, byMeaning] = await Promise.all([
      rankByWords(userId, weigh(stems, df, stats), df, limit, range),
      meaning
        ? meaning.search(userId, text, limit).catch((err: unknown) => {
            log.warn({ err }, 'search by meaning did not answer; words only');
            return [];
          })
        : [],
    ]);
    const thoughts = await presentIds(
      userId,
      fuseRanks(
        byWords,
        byMeaning.map((m) => m.id),
      ),
    );
    return thoughts
      .filter((t) => !range || (t.localDate >= range.start && t.localDate <= range.end))
      .slice(0, limit);
  }
}
