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
