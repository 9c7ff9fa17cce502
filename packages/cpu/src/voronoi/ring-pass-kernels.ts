// Worker kernels of the rings' output passes (`ring-passes.ts`): the Voronoi output check and the
// removal of repeated consecutive points, over the rings of a large result on several threads.
// Each kernel runs as `kernel(lo, hi, ...)` over items `lo .. hi` of `items` (item i takes rings
// round(R·i / items) .. round(R·(i + 1) / items) of the R rings). Self-contained (no imports, no
// outer names): the worker pool runs them from their source text.

/**
 * Per item, the first ring that fails the output check (finite coordinates, closed, at least 4
 * points, or 0 points when `allowEmpty`), or −1: the item's first failing ring, in order.
 */
export function firstBadRings(
  lo: number,
  hi: number,
  coords: Float64Array,
  ringOffsets: Int32Array,
  items: number,
  allowEmpty: boolean,
): number[] {
  const rings = ringOffsets.length - 1;
  const out: number[] = [];
  for (let item = lo; item < hi; item++) {
    let bad = -1;
    const end = Math.round((rings * (item + 1)) / items);
    for (let r = Math.round((rings * item) / items); r < end && bad < 0; r++) {
      const a = ringOffsets[r];
      const b = ringOffsets[r + 1];
      if (b === a && allowEmpty) continue;
      if (b - a < 4) {
        bad = r;
        break;
      }
      // v − v is 0 for a finite v and NaN for NaN and ±∞: one sum per ring
      let sum = 0;
      for (let c = 2 * a; c < 2 * b; c++) sum += coords[c] - coords[c];
      if (sum !== 0 || coords[2 * a] !== coords[2 * b - 2] || coords[2 * a + 1] !== coords[2 * b - 1])
        bad = r;
    }
    out.push(bad);
  }
  return out;
}

/**
 * Per item, how many points repeat the point before them in their ring (a zero-length edge), and
 * the first ring that fails the output check once its repeats are gone (−1 for none): fewer than
 * 4 points left, a coordinate not finite, or not closed (dropping repeats keeps the first point
 * and a point equal to the last). Returns [repeats, first bad ring] per item. The rings
 * `first .. end` (default all) are split among items `idle .. items − 1`; items below `idle` do
 * nothing (item 0 of a chunk counted while the calling thread copies the next, see
 * `copyRingsCounted`).
 */
export function countRepeats(
  lo: number,
  hi: number,
  coords: Float64Array,
  ringOffsets: Int32Array,
  items: number,
  from = 0,
  to = ringOffsets.length - 1,
  idle = 0,
): number[][] {
  const out: number[][] = [];
  for (let item = lo; item < hi; item++) {
    if (item < idle) {
      out.push([0, -1]);
      continue;
    }
    const share = items - idle;
    const first = from + Math.round(((to - from) * (item - idle)) / share);
    const end = from + Math.round(((to - from) * (item - idle + 1)) / share);
    let repeats = 0;
    let bad = -1;
    for (let r = first; r < end; r++) {
      const a = ringOffsets[r];
      const b = ringOffsets[r + 1];
      let own = 0;
      let sum = 0;
      if (b > a) {
        // v − v is 0 for a finite v and NaN for NaN and ±∞; the previous point kept in locals
        let px = coords[2 * a];
        let py = coords[2 * a + 1];
        // two sums: independent chains of additions
        let sx = px - px;
        let sy = py - py;
        for (let p = a + 1; p < b; p++) {
          const x = coords[2 * p];
          const y = coords[2 * p + 1];
          sx += x - x;
          sy += y - y;
          if (x === px && y === py) own++;
          px = x;
          py = y;
        }
        sum = sx + sy;
      }
      repeats += own;
      if (
        bad < 0 &&
        (b - a - own < 4 ||
          sum !== 0 ||
          coords[2 * a] !== coords[2 * b - 2] ||
          coords[2 * a + 1] !== coords[2 * b - 1])
      )
        bad = r;
    }
    out.push([repeats, bad]);
  }
  return out;
}

/**
 * The rings of each item without their repeated points, written from point `starts[item]` of
 * `out` on; `offsets[r + 1]` is where ring r ends there (offsets[0] is the caller's 0).
 */
export function dropRepeats(
  lo: number,
  hi: number,
  coords: Float64Array,
  ringOffsets: Int32Array,
  items: number,
  out: Float64Array,
  offsets: Int32Array,
  starts: Int32Array,
): void {
  const rings = ringOffsets.length - 1;
  for (let item = lo; item < hi; item++) {
    let w = starts[item];
    const end = Math.round((rings * (item + 1)) / items);
    for (let r = Math.round((rings * item) / items); r < end; r++) {
      const a = ringOffsets[r];
      for (let p = a; p < ringOffsets[r + 1]; p++) {
        const x = coords[2 * p];
        const y = coords[2 * p + 1];
        if (p > a && x === coords[2 * p - 2] && y === coords[2 * p - 1]) continue;
        out[2 * w] = x;
        out[2 * w + 1] = y;
        w++;
      }
      offsets[r + 1] = w;
    }
  }
}

/**
 * {@link countRepeats} over rings given as vertex indices (the GPU's indexed emit): per item,
 * writes its rings' coordinates into `coords` (point p is vertex `index[p]` of `vertices`) and
 * counts repeats and finds the first bad ring in the same pass, so the result's pages are first
 * written here, in parallel. Returns [repeats, first bad ring] per item.
 */
export function expandCountRepeats(
  lo: number,
  hi: number,
  vertices: Float64Array,
  index: Uint32Array,
  ringOffsets: Int32Array,
  items: number,
  coords: Float64Array,
): number[][] {
  const rings = ringOffsets.length - 1;
  const out: number[][] = [];
  for (let item = lo; item < hi; item++) {
    const first = Math.round((rings * item) / items);
    const end = Math.round((rings * (item + 1)) / items);
    let repeats = 0;
    let bad = -1;
    for (let r = first; r < end; r++) {
      const a = ringOffsets[r];
      const b = ringOffsets[r + 1];
      let own = 0;
      let sum = 0;
      if (b > a) {
        // an index past the vertices reads undefined: NaN, which the sum reports
        let v = 2 * index[a];
        let px = vertices[v];
        let py = vertices[v + 1];
        coords[2 * a] = px;
        coords[2 * a + 1] = py;
        let sx = px - px;
        let sy = py - py;
        for (let p = a + 1; p < b; p++) {
          v = 2 * index[p];
          const x = vertices[v];
          const y = vertices[v + 1];
          coords[2 * p] = x;
          coords[2 * p + 1] = y;
          sx += x - x;
          sy += y - y;
          if (x === px && y === py) own++;
          px = x;
          py = y;
        }
        sum = sx + sy;
      }
      repeats += own;
      if (
        bad < 0 &&
        (b - a - own < 4 ||
          sum !== 0 ||
          coords[2 * a] !== coords[2 * b - 2] ||
          coords[2 * a + 1] !== coords[2 * b - 1])
      )
        bad = r;
    }
    out.push([repeats, bad]);
  }
  return out;
}
