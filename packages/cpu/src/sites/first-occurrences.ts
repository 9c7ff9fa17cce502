// Worker kernels of `uniqueSitesParallel`: exact duplicates found by radix partitioning on a
// hash of the coordinates, so every table stays small and every pass streams through memory
// (one shared hash table over 1M sites is bound by cache misses: ~100 ms on one thread, hardly
// less on two). Each kernel runs as `kernel(lo, hi, ...)` over items `lo .. hi` of `threads`
// items (one item a thread: item r takes the r-th of `threads` equal shares of the sites or of
// the buckets). Self-contained (no imports, no outer names): the worker pool runs them from
// their source text.

/**
 * Pass 1: the hash of every site of the item's share into `hashes`, and the share's counts per
 * bucket (the hash's top `bits` bits, 1 to 16). Returns the counts followed by [min x, min y, max x,
 * max y, −0 coordinates] of the share (−0 counted as 0 in the box).
 */
export function hashSites(
  lo: number,
  hi: number,
  xy: Float64Array,
  hashes: Int32Array,
  bits: number,
  threads: number,
): Float64Array {
  const n = xy.length >> 1;
  const buckets = 1 << bits;
  const words = new Uint32Array(xy.buffer, xy.byteOffset, 2 * xy.length);
  const out = new Float64Array(buckets + 5);
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  let negativeZeros = 0;
  for (let item = lo; item < hi; item++) {
    const end = Math.round((n * (item + 1)) / threads);
    for (let i = Math.round((n * item) / threads); i < end; i++) {
      // + 0 turns −0 into 0: they compare equal, so they hash alike
      const x = xy[2 * i] + 0;
      const y = xy[2 * i + 1] + 0;
      let a = words[4 * i];
      let b = words[4 * i + 1];
      let c = words[4 * i + 2];
      let d = words[4 * i + 3];
      if (x === 0) {
        if (b !== 0) negativeZeros++;
        a = 0;
        b = 0;
      }
      if (y === 0) {
        if (d !== 0) negativeZeros++;
        c = 0;
        d = 0;
      }
      let h = Math.imul(a ^ Math.imul(b, 0x9e3779b1), 0x85ebca6b);
      h ^= Math.imul(c ^ (h >>> 15), 0xc2b2ae35);
      h ^= Math.imul(d ^ (h >>> 13), 0x27d4eb2f);
      h ^= h >>> 16;
      hashes[i] = h;
      out[h >>> (32 - bits)]++;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  out.set([minX, minY, maxX, maxY, negativeZeros], buckets);
  return out;
}

/**
 * Pass 2: the item's share of the sites into their buckets of `order` (with their hashes beside,
 * in `orderHash`, so pass 3 reads both in sequence), from the share's own start in each bucket
 * (`starts[item · buckets + b]`): shares go in item order, so each bucket lists its sites in
 * increasing index.
 */
export function scatterSites(
  lo: number,
  hi: number,
  hashes: Int32Array,
  order: Int32Array,
  orderHash: Int32Array,
  starts: Int32Array,
  bits: number,
  threads: number,
): void {
  const n = hashes.length;
  const buckets = 1 << bits;
  for (let item = lo; item < hi; item++) {
    const next = starts.slice(item * buckets, (item + 1) * buckets);
    const end = Math.round((n * (item + 1)) / threads);
    for (let i = Math.round((n * item) / threads); i < end; i++) {
      const h = hashes[i];
      const k = next[h >>> (32 - bits)]++;
      order[k] = i;
      orderHash[k] = h;
    }
  }
}

/**
 * Pass 3: in each bucket of the item's share of buckets, `firstOf[i]` = the lowest index of a
 * site with the same coordinates (i itself for a first appearance). A table of at least twice
 * the bucket's sites, open addressing on the hash's low bits, the hash kept beside the index so
 * coordinates are read only on a hash match. Returns the number of repeated sites.
 */
export function firstOccurrences(
  lo: number,
  hi: number,
  xy: Float64Array,
  order: Int32Array,
  orderHash: Int32Array,
  bucketStart: Int32Array,
  firstOf: Int32Array,
  threads: number,
): number {
  const buckets = bucketStart.length - 1;
  let repeated = 0;
  let size = 64;
  let slots = new Int32Array(size);
  let slotHash = new Int32Array(size);
  for (let item = lo; item < hi; item++) {
    const endBucket = Math.round((buckets * (item + 1)) / threads);
    for (let bucket = Math.round((buckets * item) / threads); bucket < endBucket; bucket++) {
      const from = bucketStart[bucket];
      const to = bucketStart[bucket + 1];
      if (to === from) continue;
      while (size < 2 * (to - from)) size *= 2;
      if (slots.length < size) {
        slots = new Int32Array(size);
        slotHash = new Int32Array(size);
      }
      const mask = size - 1;
      slots.fill(-1, 0, size);
      for (let k = from; k < to; k++) {
        const i = order[k];
        const h = orderHash[k];
        let s = h & mask;
        let found = -1;
        while (slots[s] !== -1) {
          const f = slots[s];
          if (slotHash[s] === h && xy[2 * f] === xy[2 * i] && xy[2 * f + 1] === xy[2 * i + 1]) {
            found = f;
            break;
          }
          s = (s + 1) & mask;
        }
        if (found >= 0) {
          firstOf[i] = found;
          repeated++;
        } else {
          firstOf[i] = i;
          slots[s] = i;
          slotHash[s] = h;
        }
      }
    }
  }
  return repeated;
}
