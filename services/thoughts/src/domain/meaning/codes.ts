/**
 * What search by meaning keeps in memory: per user, for each vector, two bits per dimension (is
 * the component clearly positive, clearly negative, or near zero: a ternary code), one int8 per
 * dimension (the vector scaled so its largest component is ±127) with that scale, and the thought's
 * id. A query scores every ternary code with popcounts (about a tenth of the time of int8 products
 * in JavaScript), re-ranks the best 4,000 by their int8 codes, and only the best of those are
 * read back exactly. Nothing here is text; the codes are lossy copies of vectors stored encrypted.
 */

/** Bytes each vector costs beside its codes: its thought id, its scale and its ternary norm (4 each). */
const PER_VECTOR = 12;

/** Candidates the ternary pass hands to the int8 pass. */
export const TERNARY_CANDIDATES = 4000;

/** A component counts as positive or negative beyond this share of the vector's RMS. */
const TERNARY_THRESHOLD = 0.6;

/** 32-bit words of one half (positive or negative) of a ternary code of `dims` dimensions. */
const wordsOf = (dims: number) => Math.ceil(dims / 32);

/** Memory one vector of `dims` dimensions takes in the cache, in bytes. */
export const bytesPerVector = (dims: number) => dims + 8 * wordsOf(dims) + PER_VECTOR;

/**
 * Writes `v`'s ternary code: `words` positive-bit words, then `words` negative-bit words. Returns
 * 1/√(components kept), so that agreements minus clashes times the two norms is the cosine of the
 * two ternary vectors.
 */
export function ternary(v: Float32Array, into: Int32Array, words = wordsOf(v.length)): number {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  const t = TERNARY_THRESHOLD * Math.sqrt(sum / Math.max(1, v.length));
  into.fill(0);
  let kept = 0;
  for (let i = 0; i < v.length; i++) {
    const x = v[i]!;
    if (x > t) into[i >> 5] = into[i >> 5]! | (1 << (i & 31));
    else if (x < -t) into[words + (i >> 5)] = into[words + (i >> 5)]! | (1 << (i & 31));
    else continue;
    kept++;
  }
  return 1 / Math.sqrt(Math.max(1, kept));
}

function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** The best `k` of scored items (a min-heap of slots by score); `sorted()` best first. */
class TopK {
  private readonly score: Float64Array;
  private readonly slot: Int32Array;
  size = 0;
  constructor(private readonly k: number) {
    this.score = new Float64Array(k);
    this.slot = new Int32Array(k);
  }
  /** The score an item must beat to enter once full. */
  get floor(): number {
    return this.size < this.k ? -Infinity : this.score[0]!;
  }
  push(score: number, slot: number): void {
    const h = this.score;
    const sl = this.slot;
    if (this.size < this.k) {
      let c = this.size++;
      while (c > 0) {
        const p = (c - 1) >> 1;
        if (h[p]! <= score) break;
        h[c] = h[p]!;
        sl[c] = sl[p]!;
        c = p;
      }
      h[c] = score;
      sl[c] = slot;
    } else if (score > h[0]!) {
      let c = 0;
      for (;;) {
        const l = 2 * c + 1;
        if (l >= this.size) break;
        const r = l + 1;
        const m = r < this.size && h[r]! < h[l]! ? r : l;
        if (h[m]! >= score) break;
        h[c] = h[m]!;
        sl[c] = sl[m]!;
        c = m;
      }
      h[c] = score;
      sl[c] = slot;
    }
  }
  sorted(): number[] {
    return Array.from({ length: this.size }, (_, j) => j)
      .sort((a, b) => this.score[b]! - this.score[a]!)
      .map((j) => this.slot[j]!);
  }
}

/** A vector quantised to int8: `codes[i] * scale ≈ v[i]`. */
export function quantise(v: Float32Array, into: Int8Array = new Int8Array(v.length)): number {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]!));
  const scale = max > 0 ? max / 127 : 1;
  for (let i = 0; i < v.length; i++) into[i] = Math.round(v[i]! / scale);
  return scale;
}

/** One user's quantised vectors: growable typed arrays, with no per-vector object. */
export class UserCodes {
  dims = 0;
  n = 0;
  private capacity = 0;
  ids = new Int32Array(0);
  codes = new Int8Array(0);
  /** Ternary codes, 2 × ceil(dims / 32) words a vector. */
  signs = new Int32Array(0);
  /** 1/√(components kept) of each ternary code. */
  norms = new Float32Array(0);
  scales = new Float32Array(0);
  /** The version of the user's stored vectors these codes reflect (see `embeddingVersion`). */
  latest: string | null = null;
  /** When the stored version was last compared (ms), at most once a second per user. */
  checkedAt = 0;

  /** `expected`: how many vectors to make room for at once (a build knows the count). */
  constructor(expected = 0) {
    this.capacity = expected;
    this.ids = new Int32Array(expected);
    this.scales = new Float32Array(expected);
    this.norms = new Float32Array(expected);
  }

  /** Memory held, in bytes. */
  get bytes(): number {
    return this.capacity * bytesPerVector(this.dims);
  }

  private grow(min: number) {
    const capacity = Math.max(min, Math.ceil(this.capacity * 1.25), 16);
    const ids = new Int32Array(capacity);
    ids.set(this.ids.subarray(0, this.n));
    const codes = new Int8Array(capacity * this.dims);
    codes.set(this.codes.subarray(0, this.n * this.dims));
    const scales = new Float32Array(capacity);
    scales.set(this.scales.subarray(0, this.n));
    const norms = new Float32Array(capacity);
    norms.set(this.norms.subarray(0, this.n));
    this.norms = norms;
    const w2 = 2 * wordsOf(this.dims);
    const signs = new Int32Array(capacity * w2);
    signs.set(this.signs.subarray(0, this.n * w2));
    this.ids = ids;
    this.codes = codes;
    this.signs = signs;
    this.scales = scales;
    this.capacity = capacity;
  }

  private slotOf(id: number): number {
    const ids = this.ids;
    for (let s = 0; s < this.n; s++) if (ids[s] === id) return s;
    return -1;
  }

  /**
   * Adds or replaces the thought's vector. `appendOnly` skips looking for an existing slot (building
   * from a page of distinct ids). A vector of other dimensions than the user's others is ignored
   * (false): it cannot be compared with them.
   */
  put(id: number, vector: Float32Array, appendOnly = false): boolean {
    if (this.n === 0 && this.dims !== vector.length) {
      this.dims = vector.length;
      this.codes = new Int8Array(this.capacity * this.dims);
      this.signs = new Int32Array(this.capacity * 2 * wordsOf(this.dims));
    }
    if (vector.length !== this.dims) return false;
    let slot = appendOnly ? -1 : this.slotOf(id);
    if (slot < 0) {
      if (this.n === this.capacity || this.codes.length < (this.n + 1) * this.dims) this.grow(this.n + 1);
      slot = this.n++;
    }
    this.ids[slot] = id;
    this.scales[slot] = quantise(vector, this.codes.subarray(slot * this.dims, (slot + 1) * this.dims));
    const w2 = 2 * wordsOf(this.dims);
    this.norms[slot] = ternary(vector, this.signs.subarray(slot * w2, (slot + 1) * w2));
    return true;
  }

  /**
   * Adds or replaces many vectors: with more than a few, their slots are found through an index of
   * the ids built for the occasion (a refresh after a bulk write), not by a scan for each.
   */
  putMany(vectors: Array<{ id: number; vector: Float32Array }>): void {
    if (vectors.length <= 16) {
      for (const { id, vector } of vectors) this.put(id, vector);
      return;
    }
    const slots = new Map<number, number>();
    for (let s = 0; s < this.n; s++) slots.set(this.ids[s]!, s);
    for (const { id, vector } of vectors) {
      const slot = slots.get(id);
      if (slot === undefined) {
        if (this.put(id, vector, true)) slots.set(id, this.n - 1);
      } else if (vector.length === this.dims) {
        this.ids[slot] = id;
        this.scales[slot] = quantise(vector, this.codes.subarray(slot * this.dims, (slot + 1) * this.dims));
        const w2 = 2 * wordsOf(this.dims);
        this.norms[slot] = ternary(vector, this.signs.subarray(slot * w2, (slot + 1) * w2));
      }
    }
  }

  remove(id: number): void {
    const slot = this.slotOf(id);
    if (slot < 0) return;
    const last = --this.n;
    if (slot !== last) {
      this.ids[slot] = this.ids[last]!;
      this.scales[slot] = this.scales[last]!;
      this.norms[slot] = this.norms[last]!;
      this.codes.copyWithin(slot * this.dims, last * this.dims, (last + 1) * this.dims);
      const w2 = 2 * wordsOf(this.dims);
      this.signs.copyWithin(slot * w2, last * w2, (last + 1) * w2);
    }
  }

  has(id: number): boolean {
    return this.slotOf(id) >= 0;
  }

  /** Every id held, as a set. */
  idSet(): Set<number> {
    return new Set(this.ids.subarray(0, this.n));
  }

  /**
   * The ids of the `k` vectors whose codes are most alike `query` (approximate cosine, best first),
   * leaving out `exclude`: every ternary code scored, the best TERNARY_CANDIDATES re-ranked by int8.
   */
  nearest(query: Float32Array, k: number, exclude?: number): number[] {
    const dims = this.dims;
    const words = wordsOf(dims);
    const w2 = 2 * words;
    const { codes, scales, ids, signs, norms } = this;
    const qs = new Int32Array(w2);
    ternary(query, qs, words);
    const first = new TopK(Math.max(TERNARY_CANDIDATES, k));
    for (let s = 0; s < this.n; s++) {
      const base = s * w2;
      let agree = 0;
      let clash = 0;
      for (let w = 0; w < words; w++) {
        const cp = signs[base + w]!;
        const cn = signs[base + words + w]!;
        const qp = qs[w]!;
        const qn = qs[words + w]!;
        agree += popcount((qp & cp) | (qn & cn));
        clash += popcount((qp & cn) | (qn & cp));
      }
      const score = (agree - clash) * norms[s]!;
      if (score > first.floor && ids[s] !== exclude) first.push(score, s);
    }
    const q = new Int8Array(dims);
    quantise(query, q);
    const second = new TopK(k);
    for (const s of first.sorted()) {
      const base = s * dims;
      let acc = 0;
      let i = 0;
      for (; i + 3 < dims; i += 4) {
        acc +=
          codes[base + i]! * q[i]! +
          codes[base + i + 1]! * q[i + 1]! +
          codes[base + i + 2]! * q[i + 2]! +
          codes[base + i + 3]! * q[i + 3]!;
      }
      for (; i < dims; i++) acc += codes[base + i]! * q[i]!;
      second.push(acc * scales[s]!, s);
    }
    return second.sorted().map((s) => ids[s]!);
  }
}

/**
 * The codes of every user searched lately, within a byte budget for the whole process: the user
 * searched least recently is dropped first (and rebuilt from the stored vectors when they search
 * again). A single user larger than the budget is served from codes built for that search and not
 * kept.
 */
export class MeaningCache {
  private readonly entries = new Map<number, UserCodes>();

  constructor(readonly budgetBytes: number) {}

  /** The user's codes, if held, now counted as the most recently used. */
  get(userId: number): UserCodes | undefined {
    const entry = this.entries.get(userId);
    if (entry) {
      this.entries.delete(userId);
      this.entries.set(userId, entry);
    }
    return entry;
  }

  /** Keeps (or re-measures) the user's codes, dropping the least recently used beyond the budget. */
  keep(userId: number, entry: UserCodes): void {
    this.entries.delete(userId);
    if (entry.bytes > this.budgetBytes) return;
    this.entries.set(userId, entry);
    let total = this.bytes;
    for (const [id, other] of this.entries) {
      if (total <= this.budgetBytes) break;
      this.entries.delete(id);
      total -= other.bytes;
    }
  }

  /** The next search of this user compares the stored version first (its vectors just changed). */
  changed(userId: number): void {
    const entry = this.entries.get(userId);
    if (entry) entry.checkedAt = 0;
  }

  drop(userId: number): void {
    this.entries.delete(userId);
  }

  /** Memory held by every user's codes, in bytes. */
  get bytes(): number {
    let total = 0;
    for (const entry of this.entries.values()) total += entry.bytes;
    return total;
  }

  get users(): number {
    return this.entries.size;
  }
}
