/**
 * What search by meaning keeps in memory: per user, one int8 code per dimension of each vector
 * (the vector scaled so its largest component is ±127) with that scale, and the thought's id. A query
 * scans these with integer dot products, then only the best candidates are read back exactly.
 * Nothing here is text; the codes are lossy copies of vectors that are stored encrypted.
 */

/** Bytes each vector costs beside its codes: its thought id (4) and its scale (4). */
const PER_VECTOR = 8;

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
  }

  /** Memory held, in bytes. */
  get bytes(): number {
    return this.capacity * (this.dims + PER_VECTOR);
  }

  private grow(min: number) {
    const capacity = Math.max(min, Math.ceil(this.capacity * 1.25), 16);
    const ids = new Int32Array(capacity);
    ids.set(this.ids.subarray(0, this.n));
    const codes = new Int8Array(capacity * this.dims);
    codes.set(this.codes.subarray(0, this.n * this.dims));
    const scales = new Float32Array(capacity);
    scales.set(this.scales.subarray(0, this.n));
    this.ids = ids;
    this.codes = codes;
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
    }
    if (vector.length !== this.dims) return false;
    let slot = appendOnly ? -1 : this.slotOf(id);
    if (slot < 0) {
      if (this.n === this.capacity || this.codes.length < (this.n + 1) * this.dims) this.grow(this.n + 1);
      slot = this.n++;
    }
    this.ids[slot] = id;
    this.scales[slot] = quantise(vector, this.codes.subarray(slot * this.dims, (slot + 1) * this.dims));
    return true;
  }

  remove(id: number): void {
    const slot = this.slotOf(id);
    if (slot < 0) return;
    const last = --this.n;
    if (slot !== last) {
      this.ids[slot] = this.ids[last]!;
      this.scales[slot] = this.scales[last]!;
      this.codes.copyWithin(slot * this.dims, last * this.dims, (last + 1) * this.dims);
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
   * leaving out `exclude`.
   */
  nearest(query: Float32Array, k: number, exclude?: number): number[] {
    const dims = this.dims;
    const q = new Int8Array(dims);
    quantise(query, q);
    const heapScore = new Float64Array(k);
    const heapSlot = new Int32Array(k);
    let size = 0;
    const { codes, scales, ids } = this;
    for (let s = 0; s < this.n; s++) {
      if (ids[s] === exclude) continue;
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
      const score = acc * scales[s]!;
      if (size < k) {
        // Sift up into the min-heap of the best k so far.
        let c = size++;
        while (c > 0) {
          const p = (c - 1) >> 1;
          if (heapScore[p]! <= score) break;
          heapScore[c] = heapScore[p]!;
          heapSlot[c] = heapSlot[p]!;
          c = p;
        }
        heapScore[c] = score;
        heapSlot[c] = s;
      } else if (score > heapScore[0]!) {
        // Replace the worst of the best k and sift it down.
        let c = 0;
        for (;;) {
          const l = 2 * c + 1;
          if (l >= size) break;
          const r = l + 1;
          const m = r < size && heapScore[r]! < heapScore[l]! ? r : l;
          if (heapScore[m]! >= score) break;
          heapScore[c] = heapScore[m]!;
          heapSlot[c] = heapSlot[m]!;
          c = m;
        }
        heapScore[c] = score;
        heapSlot[c] = s;
      }
    }
    const order = Array.from({ length: size }, (_, j) => j).sort((a, b) => heapScore[b]! - heapScore[a]!);
    return order.map((j) => ids[heapSlot[j]!]!);
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
