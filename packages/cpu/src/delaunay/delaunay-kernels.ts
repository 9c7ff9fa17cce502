/**
 * Range kernels of the Delaunay stage: the Hilbert keys, the gather of the sites along the curve,
 * the renumbering scatter of the triangles and the float filter of the exact verification. The
 * pooled worker threads run them from their own source text (see `workers/range-kernels.ts`), so
 * each stays self-contained — no reference to anything outside its body, not even a helper or a
 * constant — and does its slice exactly as the serial pass does it, bit for bit.
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

/**
 * The floating-point filter of the exact incircle test over the interior edges `e` of `e0 .. e1`
 * with twin `f > e` (the edges `repairDelaunay` visits): `certified[e] = certified[f] = 1` where
 * the filter proves the edge strictly Delaunay, left 0 otherwise (inside, cocircular or undecided: the
 * exact repair decides). The one float incircle filter: `repairDelaunay` runs it edge by edge
 * after a flip. Returns the number of interior edges left uncertified.
 */
export function certifyEdges(
  e0: number,
  e1: number,
  xy: Float64Array,
  triangles: Uint32Array,
  halfedges: Int32Array,
  certified: Uint8Array,
): number {
  // Shewchuk's iccerrboundA: beyond it the sign of the rounded determinant is the exact sign
  const errbound = (10 + 96 * 2 ** -53) * 2 ** -53;
  let count = 0;
  for (let e = e0; e < e1; e++) {
    const f = halfedges[e];
    if (f <= e) continue;
    const u = triangles[e];
    const v = triangles[e % 3 === 2 ? e - 2 : e + 1];
    const w = triangles[e % 3 === 0 ? e + 2 : e - 1];
    const z = triangles[f % 3 === 0 ? f + 2 : f - 1];
    const dx = xy[2 * z];
    const dy = xy[2 * z + 1];
    const adx = xy[2 * u] - dx;
    const ady = xy[2 * u + 1] - dy;
    const bdx = xy[2 * v] - dx;
    const bdy = xy[2 * v + 1] - dy;
    const cdx = xy[2 * w] - dx;
    const cdy = xy[2 * w + 1] - dy;
    const bdxcdy = bdx * cdy;
    const cdxbdy = cdx * bdy;
    const alift = adx * adx + ady * ady;
    const cdxady = cdx * ady;
    const adxcdy = adx * cdy;
    const blift = bdx * bdx + bdy * bdy;
    const adxbdy = adx * bdy;
    const bdxady = bdx * ady;
    const clift = cdx * cdx + cdy * cdy;
    const det = alift * (bdxcdy - cdxbdy) + blift * (cdxady - adxcdy) + clift * (adxbdy - bdxady);
    const permanent =
      (Math.abs(bdxcdy) + Math.abs(cdxbdy)) * alift +
      (Math.abs(cdxady) + Math.abs(adxcdy)) * blift +
      (Math.abs(adxbdy) + Math.abs(bdxady)) * clift;
    if (det > errbound * permanent) {
      certified[e] = 1;
      certified[f] = 1;
    } else count++;
  }
  return count;
}
