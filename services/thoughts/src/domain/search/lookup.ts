import type { InternalSearchQuery } from '@haven/contracts/internal';
import type { Thought } from '@haven/contracts/thoughts';
import {
  periodRows,
  rankAnyTerms,
  termFrequencies,
  userStats,
  type WeightedTerms,
} from '../../db/search.repository';
import { idsWithTagToken } from '../../db/thoughts.repository';
import type { SearchContext } from './context';
import { foldText } from './fold';
import { fuseRanks } from './fusion';
import { distinct, weigh, type Planner } from './plan';
import { keyWords, stemOf } from './tokens';
import type { Verifier } from './verify';

/** Thoughts the assistant's "any of these words" scores at most before it narrows (rankByWords). */
const ANY_WORDS_SCORED = 3000;

/** The assistant's lookup (see InternalSearchQuery): a period, a phrase, or any of some words. */
export function createLookup(
  { db, tags, hashes, meaning, log, present, presentIds }: SearchContext,
  { planQuery }: Planner,
  { verifiedFrom }: Verifier,
) {
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

  /** The assistant's lookup (see InternalSearchQuery), best first. */
  return async function internal(userId: number, query: InternalSearchQuery): Promise<Thought[]> {
    const range = query.start && query.end ? { start: query.start, end: query.end } : undefined;
    if (!query.q)
      return range ? (await periodRows(db, userId, range.start, range.end, query.limit)).map(present) : [];
    const folded = foldText(query.q);
    const terms = keyWords(folded);
    if (query.match === 'words' && terms.length > 0)
      return anyWords(userId, query.q, terms, query.limit, range);
    return phrase(userId, folded, query.q, query.limit, range);
  };
}
