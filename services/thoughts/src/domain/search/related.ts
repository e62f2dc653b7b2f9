import type { RelatedAnswer } from '@haven/contracts/thoughts';
import { notFound } from '@haven/kit/errors';
import { rankAnyTerms, rarestTerms, userStats, wordsOfThought } from '../../db/search.repository';
import type { SearchContext } from './context';
import { plainHit } from './hits';
import { weigh } from './plan';

/** How many of a thought's rarest words "related" looks for. */
const RELATED_TERMS = 10;

/** Thoughts most like one of the user's: by meaning when it has a vector, else by rare words. */
export function createRelated({ db, meaning, log, presentIds }: SearchContext) {
  return async function related(userId: number, id: number, limit: number): Promise<RelatedAnswer> {
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
  };
}
