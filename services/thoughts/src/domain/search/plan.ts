import {
  countCandidates,
  rankCandidates,
  termFrequencies,
  tierCandidates,
  userStats,
  type SubstringQuery,
  type WeightedTerms,
} from '../../db/search.repository';
import type { SearchContext } from './context';
import { queryBoundaries, queryGrams, stemOf, wordsOf } from './tokens';

/** The most ids of a tier read whole that a page keeps for its further rounds (see candidatesFrom). */
const TIER_IDS_KEPT = 20_000;

/** Query terms weighted by BM25's idf: ln(1 + (N − df + ½) / (df + ½)). */
export function weigh(
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

export const distinct = <T>(xs: T[]) => [...new Set(xs)];

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
export interface Plan {
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

/** How a query is planned over the index, and its candidates read from the plan round by round. */
export function createPlanner({ db, hashes, verifyAll, rankAll }: SearchContext) {
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

  return { planQuery, candidatesFrom };
}
export type Planner = ReturnType<typeof createPlanner>;
