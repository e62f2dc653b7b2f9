import type { Db } from '@haven/kit/db';
import { embeddingVersion, vectorIds, vectorsByIds, vectorsSince } from '../../db/embeddings.repository';
import { UserCodes, type MeaningCache } from './codes';
import { PAGE, REFRESH_OVERLAP_MS, VERSION_CHECK_MS } from './limits';
import type { EmbeddingSources } from './sources';

/** A user's codes, built from their stored vectors once, then kept up to them (see VERSION_CHECK_MS). */
export function createCodesLoader(deps: {
  db: Db;
  model: string;
  cache: MeaningCache;
  open: EmbeddingSources['open'];
}) {
  const { db, model, cache, open } = deps;

  /**
   * Decrypts all the user's vectors once into codes: their ids first, then the vectors by id a page
   * at a time (primary-key lookups, whatever else the table holds), so only a page is in memory.
   */
  async function build(userId: number): Promise<UserCodes> {
    // Read first: whatever is written while the pages are read is newer, and the next check sees it.
    const version = await embeddingVersion(db, userId, model);
    const ids = (await vectorIds(db, userId, model)).sort((a, b) => a - b);
    const entry = new UserCodes(ids.length);
    for (let i = 0; i < ids.length; i += PAGE)
      for (const row of await vectorsByIds(db, userId, model, ids.slice(i, i + PAGE)))
        entry.put(row.thoughtId, open(userId, row), true);
    entry.latest = version.latest;
    entry.checkedAt = Date.now();
    return entry;
  }

  /** Brings the codes up to the stored vectors: the changed ones re-read, the deleted ones dropped. */
  async function refresh(userId: number, entry: UserCodes): Promise<void> {
    const version = await embeddingVersion(db, userId, model);
    entry.checkedAt = Date.now();
    if (version.count === entry.n && version.latest === entry.latest) return;
    if (version.latest !== entry.latest && version.latest !== null) {
      const since = entry.latest
        ? new Date(Date.parse(entry.latest) - REFRESH_OVERLAP_MS).toISOString()
        : '1970-01-01T00:00:00Z';
      const rows = await vectorsSince(db, userId, model, since);
      entry.putMany(rows.map((row) => ({ id: row.thoughtId, vector: open(userId, row) })));
    }
    if (version.count !== entry.n) {
      const stored = new Set(await vectorIds(db, userId, model));
      const held = entry.idSet();
      for (const id of held) if (!stored.has(id)) entry.remove(id);
      const missing = [...stored].filter((id) => !held.has(id));
      for (let i = 0; i < missing.length; i += PAGE) {
        const rows = await vectorsByIds(db, userId, model, missing.slice(i, i + PAGE));
        entry.putMany(rows.map((row) => ({ id: row.thoughtId, vector: open(userId, row) })));
      }
    }
    entry.latest = version.latest;
  }

  /** Codes being built or refreshed, per user: concurrent searches wait for the same work. */
  const loading = new Map<number, Promise<UserCodes>>();

  return function codesFor(userId: number): Promise<UserCodes> {
    const held = cache.get(userId);
    if (held && Date.now() - held.checkedAt < VERSION_CHECK_MS) return Promise.resolve(held);
    let pending = loading.get(userId);
    if (!pending) {
      pending = (async () => {
        const entry = held ?? (await build(userId));
        if (held) await refresh(userId, held);
        cache.keep(userId, entry);
        return entry;
      })().finally(() => loading.delete(userId));
      loading.set(userId, pending);
    }
    return pending;
  };
}
export type CodesFor = ReturnType<typeof createCodesLoader>;
