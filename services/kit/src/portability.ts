import { createBlindIndex } from './blind-index';

/**
 * What every service's export and import share: keyset pages (by id, never OFFSET, so a page costs
 * the same at the end of a large account as at its start) and duplicate keys (a keyed hash of what
 * makes two items the same, so an import finds what the user already has with an indexed lookup
 * instead of decrypting their data).
 */

/** A page from rows read as `id > after order by id limit limit+1`: the page and the next cursor. */
export function keysetPage<T extends { id: number }>(
  rows: readonly T[],
  limit: number,
): { items: T[]; next: number | null } {
  const items = rows.slice(0, limit);
  return { items, next: rows.length > limit ? items.at(-1)!.id : null };
}

/** Duplicate keys of one purpose: equal parts of the same owner give equal keys. */
export type DuplicateKeys = (userId: number, parts: ReadonlyArray<string | number | null>) => string;

export function createDuplicateKeys(secret: string, purpose: string): DuplicateKeys {
  const index = createBlindIndex(secret, `duplicates:${purpose}`);
  // Each part is length-prefixed, so ("ab", "c") and ("a", "bc") never collide.
  return (userId, parts) =>
    index([userId, ...parts].map((p) => (p === null ? '-' : `${String(p).length}:${String(p)}`)).join('|'));
}

/**
 * For each item, whether it is new: not among `existing` and not repeated earlier in the batch.
 * `existing` gains the keys of the new items.
 */
export function markNew<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  existing: Set<string>,
): boolean[] {
  return items.map((item) => {
    const key = keyOf(item);
    if (existing.has(key)) return false;
    existing.add(key);
    return true;
  });
}
