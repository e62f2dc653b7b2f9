import type { SearchHit } from '@haven/contracts/thoughts';
import { candidateRows } from '../../db/search.repository';
import { contentContext, withoutVoiceMarker } from '../present';
import type { SearchContext } from './context';
import { foldText } from './fold';
import { matches, wordHit } from './hits';
import type { Plan, Planner } from './plan';

/** Candidates one page checks at most before it answers with fewer hits (see verifiedFrom). */
const SCAN_LIMIT = 1000;

/** Where word results continue: the rank `o`, within tier `k` when ranked tier by tier. */
export interface WordPosition {
  o: number;
  k?: number;
}

/** Word results checked against the decrypted text: a page of them, and how many there are. */
export function createVerifier(
  { db, cipher, tags, verifyAll, presentIds }: SearchContext,
  { candidatesFrom }: Planner,
) {
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

  return { verifiedFrom, wordTotal };
}
export type Verifier = ReturnType<typeof createVerifier>;
