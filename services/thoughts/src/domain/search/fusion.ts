/** Reciprocal rank fusion's constant. */
const RRF_K = 60;

/** Ids fused by reciprocal rank (k = 60), best first; ties keep the first list's order. */
export function fuseRanks(first: number[], second: number[]): number[] {
  const score = new Map<number, number>();
  const order = new Map<number, number>();
  [first, second].forEach((list, l) =>
    list.forEach((id, rank) => {
      score.set(id, (score.get(id) ?? 0) + 1 / (RRF_K + rank + 1));
      if (!order.has(id)) order.set(id, l * 1_000_000 + rank);
    }),
  );
  return [...score.keys()].sort((a, b) => score.get(b)! - score.get(a)! || order.get(a)! - order.get(b)!);
}
