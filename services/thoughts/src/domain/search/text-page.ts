import type { SearchHit, SearchPage, Thought } from '@haven/contracts/thoughts';
import type { SearchContext } from './context';
import { encodeCursor, searchHash, type SearchCursor } from './cursor';
import { foldText } from './fold';
import { fuseRanks } from './fusion';
import { matches, plainHit, wordHit } from './hits';
import type { Planner } from './plan';
import type { Verifier } from './verify';

/** How deep the word and meaning results go into the first page's fusion. */
export const FUSE_DEPTH = 50;

/**
 * The first word hits fused with meaning's thoughts (reciprocal rank), each thought meaning found
 * shown as a word hit when it holds the query, and how many of them only meaning found.
 */
function fuseHits(wordHits: SearchHit[], meaningThoughts: Thought[], folded: string) {
  const hitOf = new Map(wordHits.map((h) => [h.thought.id, h]));
  let meaningOnly = 0;
  for (const thought of meaningThoughts) {
    if (hitOf.has(thought.id)) continue;
    const byWords = matches(thought, folded);
    if (!byWords) meaningOnly += 1;
    hitOf.set(thought.id, byWords ? wordHit(thought, folded) : plainHit(thought, 'meaning'));
  }
  const merged = fuseRanks(
    wordHits.map((h) => h.thought.id),
    meaningThoughts.map((t) => t.id),
  ).map((id) => hitOf.get(id)!);
  return { merged, meaningOnly };
}

/** A page of a search for text: word results, fused with meaning's on the first page. */
export function createTextPage(
  { meaning, log, presentIds }: SearchContext,
  { planQuery }: Planner,
  { verifiedFrom, wordTotal }: Verifier,
) {
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
    const { merged, meaningOnly } = fuseHits(top.hits, meaningThoughts, folded);
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
  return async function textPage(
    userId: number,
    text: string,
    cursor: SearchCursor | undefined,
    limit: number,
  ) {
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
  };
}
export type TextPage = ReturnType<typeof createTextPage>;
