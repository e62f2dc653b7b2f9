export type { TagCount } from '@haven/contracts/thoughts';

export interface SearchFilter {
  query: string;
  /** A selected tag; when set it takes precedence over the text. */
  tag: string | null;
}

/** Whether any filter is active (a blank query is no filter). */
export function isFiltering({ query, tag }: SearchFilter): boolean {
  return tag !== null || query.trim() !== '';
}

/** Spec 9 shows the 15 most used tags under 'Popular Tags'. */
export const POPULAR_TAGS = 15;

/** Spec 9: chips grow at counts of at least 5, 10 and 15. */
export function tagTier(count: number): 0 | 1 | 2 | 3 {
  if (count >= 15) return 3;
  if (count >= 10) return 2;
  if (count >= 5) return 1;
  return 0;
}
