import type { Thought } from '@haven/contracts/thoughts';
import type { FieldCipher } from '@haven/kit/crypto';
import type { DbOrTx } from '@haven/kit/db';
import type { Logger } from '@haven/kit/logger';
import { rowsByIds } from '../../db/search.repository';
import type { ThoughtListRow } from '../../db/thoughts.repository';
import { presentThought } from '../present';
import type { TagSealer } from '../tags';
import type { SearchHashes } from './hashes';
import type { MeaningSearch } from './meaning-port';

/** What every part of one search call shares: its transaction, its limits and how it presents rows. */
export interface SearchContext {
  db: DbOrTx;
  cipher: FieldCipher;
  tags: TagSealer;
  hashes: SearchHashes;
  /** Search by meaning, or null when no embeddings model is configured (or it was asked first). */
  meaning: MeaningSearch | null;
  log: Logger;
  /** VERIFY_ALL_LIMIT, or a smaller one in tests. */
  verifyAll: number;
  /** RANK_ALL_LIMIT, or a smaller one in tests. */
  rankAll: number;
  present(row: ThoughtListRow): Thought;
  /** The user's thoughts of these ids, presented, in the order given (absent ones left out). */
  presentIds(userId: number, ids: number[]): Promise<Thought[]>;
}

/** The context of one search call, over its transaction. */
export function searchContext(deps: Omit<SearchContext, 'present' | 'presentIds'>): SearchContext {
  const { db, cipher, tags } = deps;
  const present = (row: ThoughtListRow) => presentThought(row, cipher, tags);

  async function presentIds(userId: number, ids: number[]): Promise<Thought[]> {
    const byId = new Map((await rowsByIds(db, userId, ids)).map((r) => [r.id, r]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [present(row)] : [];
    });
  }

  return { ...deps, present, presentIds };
}
