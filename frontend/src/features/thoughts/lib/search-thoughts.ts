import type { Thought } from '@haven/contracts/thoughts';

export interface SearchFilter {
  query: string;
  /** A selected tag; when set it takes precedence over the text. */
  tag: string | null;
}

/** Whether any filter is active (a blank query is no filter). */
export function isFiltering({ query, tag }: SearchFilter): boolean {
  return tag !== null || query.trim() !== '';
}

/**
 * Spec 5: a case-insensitive substring match on the content or on any tag; a tag filter needs that
 * tag (in any letter case) on the thought. Keeps the input order.
 */
export function searchThoughts(thoughts: readonly Thought[], { query, tag }: SearchFilter): Thought[] {
  if (tag !== null) {
    const wanted = tag.toLowerCase();
    return thoughts.filter((t) => t.tags.some((own) => own.toLowerCase() === wanted));
  }
  const needle = query.trim().toLowerCase();
  if (!needle) return [...thoughts];
  return thoughts.filter(
    (t) =>
      t.content.toLowerCase().includes(needle) || t.tags.some((own) => own.toLowerCase().includes(needle)),
  );
}

export interface TagCount {
  tag: string;
  count: number;
}

/**
 * The most used tags, most used first (ties alphabetical). Spellings that differ only in case count as
 * one tag, shown as its most frequent spelling.
 */
export function popularTags(thoughts: readonly Thought[], limit = 15): TagCount[] {
  const groups = new Map<string, { count: number; spellings: Map<string, number> }>();
  for (const thought of thoughts) {
    for (const tag of thought.tags) {
      const key = tag.toLowerCase();
      const group = groups.get(key) ?? { count: 0, spellings: new Map<string, number>() };
      group.count += 1;
      group.spellings.set(tag, (group.spellings.get(tag) ?? 0) + 1);
      groups.set(key, group);
    }
  }
  return [...groups.values()]
    .map(({ count, spellings }) => ({
      tag: [...spellings].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '',
      count,
    }))
    .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag))
    .slice(0, limit);
}

/** Spec 9: chips grow at counts of at least 5, 10 and 15. */
export function tagTier(count: number): 0 | 1 | 2 | 3 {
  if (count >= 15) return 3;
  if (count >= 10) return 2;
  if (count >= 5) return 1;
  return 0;
}
