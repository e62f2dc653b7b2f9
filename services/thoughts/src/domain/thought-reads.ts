import type { RangeQuery, TagCount, Thought } from '@haven/contracts/thoughts';
import { notFound } from '@haven/kit/errors';
import {
  findAudio,
  listAllPage,
  listByDay,
  listByIds,
  listRange,
  listTagColumns,
  rangeStats,
  type AllCursor,
  type ThoughtListRow,
} from '../db/thoughts.repository';
import { audioContext, presentThought } from './present';
import { normaliseTag } from './tags';
import type { ThoughtsDeps } from './thoughts-deps';

/** Thoughts read and sent at a time by GET /api/thoughts/all. */
const ALL_BATCH = 500;

/** The reading side of the thoughts domain: the user's own thoughts, presented. */
export function createThoughtReads({ db, cipher, tags }: Pick<ThoughtsDeps, 'db' | 'cipher' | 'tags'>) {
  const presentAll = (rows: ThoughtListRow[]) => rows.map((r) => presentThought(r, cipher, tags));

  /** Every thought of the user, newest first, a batch at a time (GET /api/thoughts/all streams them). */
  async function* all(userId: number): AsyncGenerator<Thought[]> {
    let after: AllCursor | null = null;
    for (;;) {
      const rows = await listAllPage(db, userId, after, ALL_BATCH);
      if (rows.length > 0) yield presentAll(rows);
      if (rows.length < ALL_BATCH) return;
      const last = rows[rows.length - 1]!;
      after = { id: last.id, at: last.at };
    }
  }

  return {
    ofDay: async (userId: number, date: string): Promise<Thought[]> =>
      presentAll(await listByDay(db, userId, date)),

    inRange: async (userId: number, range: RangeQuery): Promise<Thought[]> =>
      presentAll(await listRange(db, userId, range.start, range.end)),

    /** The user's thoughts among `ids`, in the order asked; ids that are not theirs are simply absent. */
    async byIds(userId: number, ids: number[]): Promise<Thought[]> {
      const byId = new Map((await listByIds(db, userId, ids)).map((r) => [r.id, r]));
      return ids.flatMap((id) => {
        const row = byId.get(id);
        return row ? [presentThought(row, cipher, tags)] : [];
      });
    },

    all,

    /** Count and latest change of the user's thoughts in a range (how insights know theirs are current). */
    stats: (userId: number, range: RangeQuery) => rangeStats(db, userId, range.start, range.end),

    /**
     * The user's tags with how many thoughts carry each (spellings that differ only in letter case
     * count as one, under the latest thought's spelling), most used first. It reads and decrypts
     * only the tag columns of tagged thoughts: one small decryption per tagged thought.
     */
    async tagCounts(userId: number): Promise<TagCount[]> {
      const counts = new Map<string, TagCount>();
      for (const row of await listTagColumns(db, userId)) {
        for (const tag of tags.open(row)) {
          const key = normaliseTag(tag);
          const known = counts.get(key);
          if (known) known.count++;
          else counts.set(key, { tag, count: 1 });
        }
      }
      return [...counts.values()].sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
    },

    /**
     * A voice thought's recording, decrypted, with its type. Another user's thought, or one without
     * audio, is not found. The route streams it; it never leaves in a JSON answer.
     */
    async audio(userId: number, id: number): Promise<{ bytes: Buffer; mimeType: string }> {
      const row = await findAudio(db, userId, id);
      if (!row?.audioEnc) throw notFound('This thought has no recording');
      return {
        bytes: cipher.decryptBytes(row.audioEnc, audioContext(userId)),
        mimeType: row.audioMime ?? 'audio/webm',
      };
    },
  };
}
