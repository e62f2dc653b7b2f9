/** Root of every conversation query key; each endpoint file builds its own key under it. */
export const conversationsQueryKey = ['conversations'] as const;
