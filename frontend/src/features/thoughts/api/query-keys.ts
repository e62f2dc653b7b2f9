/**
 * Root of every thoughts query key. Each endpoint file builds its own key under it, and a change to
 * any thought invalidates them all through it (day, month, search, an insight's references).
 */
export const thoughtsQueryKey = ['thoughts'] as const;
