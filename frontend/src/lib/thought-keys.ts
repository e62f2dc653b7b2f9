/**
 * Query keys of every thoughts query, shared by the features that read or change thoughts
 * (capture, timeline, search, insights) so a change invalidates them all through `thoughtKeys.all`.
 */
export const thoughtKeys = {
  all: ['thoughts'] as const,
  day: (date: string) => ['thoughts', 'day', date] as const,
  range: (start: string, end: string) => ['thoughts', 'range', start, end] as const,
  everything: () => ['thoughts', 'all'] as const,
  ids: (ids: readonly number[]) => ['thoughts', 'ids', ids.join(',')] as const,
};
