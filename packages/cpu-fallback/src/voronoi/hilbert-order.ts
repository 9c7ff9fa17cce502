/**
 * A permutation of the sites along a Hilbert curve over their bounding box: `order[k]` is the
 * index of the k-th site on the curve. Sites close on the curve are close in the plane, so
 * walking (or triangulating) them in this order keeps memory accesses local.
 *
 * The curve has about 4 cells per site (at most 2^15 per side); sites in one cell keep their
 * relative order (the sort is stable), so the result is a deterministic function of the input.
 * Any order gives the same Voronoi diagram; this one is only about speed. Sites must be finite.
 * When `bounds` is given, the sites' bounding box is written to it (minX, minY, maxX, maxY).
 */
export function hilbertOrder(xy: Float64Array, bounds?: Float64Array): Uint32Array {
  const n = xy.length >> 1;
  const order = new Uint32Array(n);
  if (n === 0) return order;
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const x = xy[2 * i];
    const y = xy[2 * i + 1];
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  if (bounds !== undefined) {
    bounds[0] = minX;
    bounds[1] = minY;
    bounds[2] = maxX;
    bounds[3] = maxY;
  }
  const bits = Math.max(1, Math.min(15, Math.ceil(Math.log2(n) / 2) + 1));
  const side = 2 ** bits;
  // map [min, max] onto [0, side - 1]; the min() guards the top edge against rounding up
  const sx = maxX > minX ? (side - 1) / (maxX - minX) : 0;
  const sy = maxY > minY ? (side - 1) / (maxY - minY) : 0;
  let keys = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const x = Math.min(side - 1, ((xy[2 * i] - minX) * sx) | 0);
    const y = Math.min(side - 1, ((xy[2 * i + 1] - minY) * sy) | 0);
    keys[i] = hilbertIndex(x, y, bits);
    order[i] = i;
  }
  // LSD radix sort of (key, index) pairs, keys moved along (no indirect reads)
  const keyBits = 2 * bits;
  const passes = Math.ceil(keyBits / 15);
  const digitBits = Math.ceil(keyBits / passes);
  const mask = (1 << digitBits) - 1;
  const counts = new Int32Array(mask + 2);
  let ids = order;
  let keys2 = new Uint32Array(n);
  let ids2 = new Uint32Array(n);
  for (let p = 0, shift = 0; p < passes; p++, shift += digitBits) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[((keys[i] >>> shift) & mask) + 1]++;
    for (let d = 1; d <= mask + 1; d++) counts[d] += counts[d - 1];
    for (let i = 0; i < n; i++) {
      const k = keys[i];
      const at = counts[(k >>> shift) & mask]++;
      keys2[at] = k;
      ids2[at] = ids[i];
    }
    [keys, keys2] = [keys2, keys];
    [ids, ids2] = [ids2, ids];
  }
  return ids;
}

/**
 * Position of cell (x, y) on the Hilbert curve of a 2^bits × 2^bits grid (bits ≤ 15). One level
 * per step, branch-free: the curve's orientation in the current quadrant is two parities, a
 * reflection across the anti-diagonal (`flip`) and a swap of the axes (`swap`), both of which
 * are applied to the next level's bits.
 */
export function hilbertIndex(x: number, y: number, bits: number): number {
  let flip = 0;
  let swap = 0;
  let d = 0;
  for (let s = bits - 1; s >= 0; s--) {
    const bx = ((x >>> s) & 1) ^ flip;
    const by = ((y >>> s) & 1) ^ flip;
    const t = (bx ^ by) & swap;
    const rx = bx ^ t;
    const ry = by ^ t;
    d = (d << 2) | ((3 * rx) ^ ry);
    const lower = 1 ^ ry;
    flip ^= lower & rx;
    swap ^= lower;
  }
  return d;
}
