/**
 * Coinciding sites share one Voronoi cell, and the cell builders need unique sites: the first of
 * each group (in site order) keeps the cell, the others get none (zero mass). Returns the unique
 * sites and, per site, its unique index or −1, and the unique index of its group (`keptOf`).
 */
export function uniqueCvtSites(x: Float64Array): {
  xy: Float64Array;
  uniqueOf: Int32Array;
  keptOf: Int32Array;
} {
  const n = x.length >> 1;
  if (allDistinct(x)) {
    // the usual case (every Lloyd iterate): no sort needed
    const identity = new Int32Array(n);
    for (let i = 0; i < n; i++) identity[i] = i;
    return { xy: x.slice(), uniqueOf: identity, keptOf: identity.slice() };
  }
  const order = Int32Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => x[2 * a] - x[2 * b] || x[2 * a + 1] - x[2 * b + 1] || a - b,
  );
  const keep = new Uint8Array(n);
  const first = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const i = order[k];
    const j = k > 0 ? order[k - 1] : -1;
    const same = j >= 0 && x[2 * i] === x[2 * j] && x[2 * i + 1] === x[2 * j + 1];
    keep[i] = same ? 0 : 1;
    first[i] = same ? first[j] : i;
  }
  const uniqueOf = new Int32Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) uniqueOf[i] = keep[i] ? count++ : -1;
  const keptOf = new Int32Array(n);
  for (let i = 0; i < n; i++) keptOf[i] = uniqueOf[first[i]];
  const xy = new Float64Array(2 * count);
  for (let i = 0; i < n; i++) {
    if (uniqueOf[i] < 0) continue;
    xy[2 * uniqueOf[i]] = x[2 * i];
    xy[2 * uniqueOf[i] + 1] = x[2 * i + 1];
  }
  return { xy, uniqueOf, keptOf };
}

/**
 * Whether no two sites are equal (as numbers: −0 equals 0), by an open-addressing hash of their
 * coordinates' bits: O(n), where the sort of {@link uniqueCvtSites} costs 50 ms at 100k sites.
 */
function allDistinct(x: Float64Array): boolean {
  const n = x.length >> 1;
  let size = 16;
  while (size < 2 * n) size *= 2;
  const table = new Int32Array(size).fill(-1);
  const words = new Uint32Array(x.buffer, x.byteOffset, 2 * x.length);
  for (let i = 0; i < n; i++) if (!placeSite(table, x, words, i)) return false;
  return true;
}

/**
 * Puts site `i` of `x` (`words`: the same bytes as u32) into the open-addressing `table` (a power
 * of two long, −1 where free, at most half full): false when an earlier site there is equal to
 * it (as numbers: −0 equals 0), else true.
 */
export function placeSite(table: Int32Array, x: Float64Array, words: Uint32Array, i: number): boolean {
  const px = x[2 * i];
  const py = x[2 * i + 1];
  // −0 hashes as 0 (its high word is 0x80000000, its low word 0)
  const hx = px === 0 ? 0 : words[4 * i + 1];
  const hy = py === 0 ? 0 : words[4 * i + 3];
  let h = Math.imul(words[4 * i] ^ hx, 0x9e3779b1);
  h = Math.imul(h ^ words[4 * i + 2] ^ Math.imul(hy, 0x85ebca6b), 0xc2b2ae35);
  const mask = table.length - 1;
  for (let slot = (h ^ (h >>> 15)) & mask; ; slot = (slot + 1) & mask) {
    const j = table[slot];
    if (j < 0) {
      table[slot] = i;
      return true;
    }
    if (x[2 * j] === px && x[2 * j + 1] === py) return false;
  }
}

/**
 * Moves every site that repeats an earlier one by a seeded offset of `radius` in a random
 * direction (repeating until unique), so that Lloyd can pull coinciding starts apart (a
 * duplicate's empty cell would never move). Returns a new array; unique input is returned as a copy.
 */
export function separateDuplicates(x: Float64Array, radius: number, seed = 1): Float64Array {
  const out = x.slice();
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let round = 0; round < 8; round++) {
    const { uniqueOf } = uniqueCvtSites(out);
    if (uniqueOf.every((u) => u >= 0)) break;
    for (let i = 0; i < uniqueOf.length; i++) {
      if (uniqueOf[i] >= 0) continue;
      const a = 2 * Math.PI * random();
      out[2 * i] += radius * Math.cos(a);
      out[2 * i + 1] += radius * Math.sin(a);
    }
  }
  return out;
}
