/**
 * Range kernels of the ordering passes around the triangulation (Hilbert keys, the gather of the
 * sites along the curve, the renumbering scatter of the triangles), run by the pooled worker
 * threads from their own source text (see `ring-workers.ts`): each stays self-contained and does
 * its slice exactly as the serial pass does it, bit for bit.
 */

/**
 * Hilbert keys of sites `lo .. hi` as `hilbertOrder` computes them: `frame` = [min x, min y, x
 * scale, y scale, cells a side, bits]; `keys[i]` the position of the site's cell on the curve.
 */
export function hilbertKeys(
  lo: number,
  hi: number,
  xy: Float64Array,
  frame: Float64Array,
  keys: Uint32Array,
): void {
  const [minX, minY, sx, sy, side, bits] = frame;
  for (let i = lo; i < hi; i++) {
    const x = Math.min(side - 1, ((xy[2 * i] - minX) * sx) | 0);
    const y = Math.min(side - 1, ((xy[2 * i + 1] - minY) * sy) | 0);
    // one level per step: the curve's orientation in the current quadrant is two parities, a
    // reflection across the anti-diagonal (flip) and a swap of the axes (swap), both applied to
    // the next level's bits
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
    keys[i] = d;
  }
}

/**
 * Sites `order[k]` for k in `lo .. hi` gathered to position k, in world coordinates (`world`) and
 * in the local frame (`local` = (world − origin) · scale; `frame` = [origin x, origin y, scale]).
 */
export function gatherSites(
  lo: number,
  hi: number,
  sites: Float64Array,
  order: Uint32Array,
  frame: Float64Array,
  world: Float64Array,
  local: Float64Array,
): void {
  const [originX, originY, scale] = frame;
  for (let k = lo; k < hi; k++) {
    const x = sites[2 * order[k]];
    const y = sites[2 * order[k] + 1];
    world[2 * k] = x;
    world[2 * k + 1] = y;
    local[2 * k] = (x - originX) * scale;
    local[2 * k + 1] = (y - originY) * scale;
  }
}

/**
 * Triangles `lo .. hi` moved to their new numbers `place[t]` (see `renumberTriangles`), each with
 * its vertices in order and its half-edges pointing at their twins' new places.
 */
export function scatterTriangles(
  lo: number,
  hi: number,
  triangles: Uint32Array,
  halfedges: Int32Array,
  place: Int32Array,
  outTriangles: Uint32Array,
  outHalfedges: Int32Array,
): void {
  for (let t = lo; t < hi; t++) {
    const to = 3 * place[t];
    for (let j = 0; j < 3; j++) {
      const e = 3 * t + j;
      outTriangles[to + j] = triangles[e];
      const twin = halfedges[e];
      outHalfedges[to + j] = twin === -1 ? -1 : 3 * place[(twin / 3) | 0] + (twin % 3);
    }
  }
}

/**
 * Pass 1a of the cell plan (`planCells` in voronoi-cells.ts) over the half-edges `lo .. hi`:
 * `start[i]` = the first half-edge leaving site i (the least index: an atomic minimum, as ranges
 * run concurrently), `length[i]` += one per half-edge leaving i, except across a cocircular edge
 * when `merged` (its two triangles share one centre). `start` is -1 and `length` 0 beforehand.
 */
export function planDegrees(
  lo: number,
  hi: number,
  triangles: Uint32Array,
  edgeState: Uint8Array,
  merged: number,
  start: Int32Array,
  length: Int32Array,
): void {
  const COCIRCULAR = 2;
  for (let e = lo; e < hi; e++) {
    const i = triangles[e];
    let seen = Atomics.load(start, i);
    while (seen === -1 || e < seen) {
      const was = Atomics.compareExchange(start, i, seen, e);
      if (was === seen) break;
      seen = was;
    }
    if (merged === 0 || edgeState[e] !== COCIRCULAR) Atomics.add(length, i, 1);
  }
}

/**
 * Pass 1b of the cell plan over the triangles `lo .. hi` (after {@link planDegrees}): `inside[t]`
 * = 1 when its centre lies in the box (`box` = [min x, min y, max x, max y]), else its three sites
 * are marked not simple (`length` -1); a hull half-edge makes its two sites not simple and sets
 * the walk start of the site it points to (each hull site is pointed to by one hull edge).
 */
export function planBoundary(
  lo: number,
  hi: number,
  triangles: Uint32Array,
  halfedges: Int32Array,
  cc: Float64Array,
  box: Float64Array,
  inside: Uint8Array,
  start: Int32Array,
  length: Int32Array,
): void {
  const [minX, minY, maxX, maxY] = box;
  for (let t = lo; t < hi; t++) {
    const x = cc[2 * t];
    const y = cc[2 * t + 1];
    if (x >= minX && x <= maxX && y >= minY && y <= maxY) inside[t] = 1;
    else {
      length[triangles[3 * t]] = -1;
      length[triangles[3 * t + 1]] = -1;
      length[triangles[3 * t + 2]] = -1;
    }
  }
  for (let e = 3 * lo; e < 3 * hi; e++) {
    if (halfedges[e] !== -1) continue;
    const f = e % 3 === 2 ? e - 2 : e + 1;
    start[triangles[f]] = f;
    length[triangles[e]] = -1;
    length[triangles[f]] = -1;
  }
}

/**
 * Over the triangles `lo .. hi` of a fresh delaunator output: `low[t]` = its lowest site and one
 * atomic count in `counts[low + 1]` (the counting sort of the renumbering), and the triangles whose
 * clockwise orientation (y up) the float filter of `orient2d` cannot certify are counted (returned:
 * the caller then checks those exactly, see `unfoldedDelaunator`).
 */
export function triangleLows(
  lo: number,
  hi: number,
  xy: Float64Array,
  triangles: Uint32Array,
  low: Int32Array,
  counts: Int32Array,
): number {
  const ORIENT_ERRBOUND = (3 + 16 * 2 ** -53) * 2 ** -53;
  let unsure = 0;
  for (let t = lo; t < hi; t++) {
    const a = triangles[3 * t];
    const b = triangles[3 * t + 1];
    const c = triangles[3 * t + 2];
    const least = Math.min(a, b, c);
    low[t] = least;
    Atomics.add(counts, least + 1, 1);
    const detleft = (xy[2 * a + 1] - xy[2 * c + 1]) * (xy[2 * b] - xy[2 * c]);
    const detright = (xy[2 * a] - xy[2 * c]) * (xy[2 * b + 1] - xy[2 * c + 1]);
    const det = detleft - detright;
    if (!(det > ORIENT_ERRBOUND * Math.abs(detleft + detright))) unsure++;
  }
  return unsure;
}
