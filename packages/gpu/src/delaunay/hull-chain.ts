import { orient2d } from 'robust-predicates';

/**
 * The convex hull of a few candidate sites (the survivors of the GPU octagon filter) by Andrew's
 * monotone chain, on grid values, with exact orientation tests.
 *
 * Grid values are integers below 2^58 with at most 53 significant bits (ADR 0010: a rounded
 * coordinate keeps at most 53 bits, an unrounded one is an f64 to begin with), so they are exact
 * doubles and robust-predicates' `orient2d` decides every turn exactly.
 *
 * Sites lying on a hull edge are kept as hull vertices (pops only on strict right turns): the
 * triangulation has no flat triangle, every site on the boundary is a vertex of it, as on the CPU.
 *
 * @param ids site indices of the candidates (any order; every site of the hull must be among them)
 * @param xy grid values of the candidates, interleaved, in the order of `ids`
 * @returns the hull's site indices counter-clockwise (y up), starting at the lowest (x, y); null
 *   when fewer than 3 candidates or all collinear (no triangle)
 */
export function hullOfCandidates(ids: Uint32Array, xy: Float64Array): Uint32Array | null {
  const m = ids.length;
  if (m < 3) return null;
  const order = new Uint32Array(m);
  for (let k = 0; k < m; k++) order[k] = k;
  order.sort((p, q) => xy[2 * p] - xy[2 * q] || xy[2 * p + 1] - xy[2 * q + 1]);
  // robust-predicates' orient2d is negative for a counter-clockwise turn (y up)
  const ccw = (a: number, b: number, c: number): number =>
    -orient2d(xy[2 * a], xy[2 * a + 1], xy[2 * b], xy[2 * b + 1], xy[2 * c], xy[2 * c + 1]);
  let turning = false;
  for (let k = 2; k < m && !turning; k++) turning = ccw(order[0], order[1], order[k]) !== 0;
  if (!turning) return null;
  const chain = new Uint32Array(2 * m);
  let top = 0;
  // lower chain left to right, then upper chain right to left; only strict right turns pop
  for (let k = 0; k < m; k++) {
    const p = order[k];
    while (top >= 2 && ccw(chain[top - 2], chain[top - 1], p) < 0) top--;
    chain[top++] = p;
  }
  const lowerTop = top + 1;
  for (let k = m - 2; k >= 0; k--) {
    const p = order[k];
    while (top >= lowerTop && ccw(chain[top - 2], chain[top - 1], p) < 0) top--;
    chain[top++] = p;
  }
  top--; // the first point closes the chain
  const hull = new Uint32Array(top);
  for (let k = 0; k < top; k++) hull[k] = ids[chain[k]];
  return hull;
}
