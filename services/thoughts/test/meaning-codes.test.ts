import { describe, expect, it } from 'vitest';
import { normalise } from '@haven/kit/llm';
import { MeaningCache, UserCodes, bytesPerVector, quantise } from '../src/domain/meaning/codes';

/** A deterministic stream of numbers in [0, 1). */
function rng(seed: number) {
  return () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
}
const gaussian = (random: () => number) =>
  Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random());

/** `count` unit vectors around `clusters` centres, as a model's embeddings of related texts are. */
function vectors(count: number, dims: number, random: () => number, clusters = 50) {
  const centres = Array.from({ length: clusters }, () =>
    Float32Array.from({ length: dims }, () => gaussian(random)),
  );
  return Array.from({ length: count }, (_, i) => {
    const c = centres[i % clusters]!;
    return normalise(Float32Array.from(c, (x) => x + 1.2 * gaussian(random)));
  });
}
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('the codes search by meaning keeps in memory', () => {
  it('quantises a vector to int8 within half a step', () => {
    const v = normalise(Float32Array.from([0.3, -0.9, 0.05, 0]));
    const codes = new Int8Array(4);
    const scale = quantise(v, codes);
    expect(Math.max(...codes.map(Math.abs))).toBe(127);
    v.forEach((x, i) => expect(Math.abs(codes[i]! * scale - x)).toBeLessThanOrEqual(scale / 2 + 1e-9));
  });

  it('finds the true nearest neighbours of 20,000 vectors (recall@10 over 20 queries ≥ 0.9)', () => {
    const random = rng(7);
    const dims = 256;
    const stored = vectors(20_000, dims, random);
    const codes = new UserCodes();
    stored.forEach((v, i) => codes.put(i + 1, v, true));
    expect(codes.n).toBe(20_000);
    const queries = vectors(20, dims, random);
    let found = 0;
    for (const q of queries) {
      const exact = stored
        .map((v, i) => ({ id: i + 1, score: dot(q, v) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, 10)
        .map((h) => h.id);
      // The 200 candidates handed to the exact comparison must hold the true top 10.
      const candidates = new Set(codes.nearest(q, 200));
      found += exact.filter((id) => candidates.has(id)).length;
    }
    expect(found / 200).toBeGreaterThanOrEqual(0.9);
  });

  it('replaces, removes and leaves out a thought, and ignores a vector of other dimensions', () => {
    const random = rng(3);
    const [a, b, c] = vectors(3, 64, random, 3);
    const codes = new UserCodes();
    codes.put(1, a!);
    codes.put(2, b!);
    expect(codes.nearest(a!, 1)).toEqual([1]);
    codes.put(1, c!); // thought 1 edited: its old vector no longer answers
    expect(codes.n).toBe(2);
    expect(codes.nearest(c!, 1)).toEqual([1]);
    expect(codes.nearest(c!, 1, 1)).toEqual([2]);
    codes.remove(1);
    expect(codes.nearest(c!, 5)).toEqual([2]);
    expect(codes.put(3, new Float32Array(32).fill(0.1))).toBe(false);
    expect(codes.n).toBe(1);
  });

  it('replaces and adds many at once (a refresh after a bulk write) as one at a time would', () => {
    const random = rng(11);
    const first = vectors(40, 64, random, 40);
    const second = vectors(40, 64, random, 40);
    const one = new UserCodes();
    const many = new UserCodes();
    first.slice(0, 30).forEach((v, i) => {
      one.put(i + 1, v);
      many.put(i + 1, v);
    });
    // Ids 11–40: 20 replaced, 10 new.
    const batch = second.slice(10).map((vector, i) => ({ id: i + 11, vector }));
    for (const { id, vector } of batch) one.put(id, vector);
    many.putMany(batch);
    expect(many.n).toBe(40);
    expect([...many.idSet()].sort((a, b) => a - b)).toEqual([...one.idSet()].sort((a, b) => a - b));
    for (const q of second) expect(many.nearest(q, 3)).toEqual(one.nearest(q, 3));
  });

  it('drops the least recently searched user beyond the budget, and never holds more', () => {
    const random = rng(5);
    const entry = (count: number) => {
      const codes = new UserCodes(count);
      vectors(count, 128, random).forEach((v, i) => codes.put(i + 1, v, true));
      return codes;
    };
    const cache = new MeaningCache(250 * bytesPerVector(128));
    cache.keep(1, entry(100));
    cache.keep(2, entry(100));
    cache.get(1); // user 1 searched again: user 2 is now the least recent
    cache.keep(3, entry(100));
    expect(cache.get(2)).toBeUndefined();
    expect(cache.get(1)).toBeDefined();
    expect(cache.bytes).toBeLessThanOrEqual(cache.budgetBytes);
    cache.keep(4, entry(300));
    expect(cache.get(4)).toBeUndefined();
    expect(cache.users).toBe(2);
  });
});
