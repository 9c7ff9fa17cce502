import { orient2d } from 'robust-predicates';

/**
 * The vertices of the convex hull of `xy`, counter-clockwise (y up) from the lowest-then-leftmost
 * site, decided with the exact orientation predicate; sites on a hull edge are not vertices. An
 * Akl–Toussaint octagon first drops the sites strictly inside it (exactly), then Andrew's
 * monotone chain runs on the few survivors. Sites must be unique and finite, not all collinear.
 */
export function convexHull(xy: Float64Array): Int32Array {
  const n = xy.length >> 1;
  // extreme sites in 8 directions
  const best = new Int32Array(8);
  const score = new Float64Array(8).fill(Number.NEGATIVE_INFINITY);
  for (let i = 0; i < n; i++) {
    const x = xy[2 * i];
    const y = xy[2 * i + 1];
    const values = [x, x + y, y, y - x, -x, -x - y, -y, x - y];
    for (let d = 0; d < 8; d++) {
      if (values[d] > score[d]) {
        score[d] = values[d];
        best[d] = i;
      }
    }
  }
  // the octagon, counter-clockwise, without repeated corners
  const corners: number[] = [];
  for (let d = 0; d < 8; d++) {
    if (corners.length === 0 || corners[corners.length - 1] !== best[d]) corners.push(best[d]);
  }
  while (corners.length > 1 && corners[0] === corners[corners.length - 1]) corners.pop();
  const survivors: number[] = [];
  for (let i = 0; i < n; i++) {
    if (!strictlyInside(xy, corners, i)) survivors.push(i);
  }
  survivors.sort((a, b) => xy[2 * a] - xy[2 * b] || xy[2 * a + 1] - xy[2 * b + 1]);
  const chain: number[] = [];
  const turn = (a: number, b: number, c: number) =>
    orient2d(xy[2 * a], xy[2 * a + 1], xy[2 * b], xy[2 * b + 1], xy[2 * c], xy[2 * c + 1]);
  // robust-predicates' orient2d is positive for clockwise turns (y up): keep strict left turns
  const lower: number[] = [];
  for (const i of survivors) {
    while (lower.length >= 2 && turn(lower[lower.length - 2], lower[lower.length - 1], i) >= 0) lower.pop();
    lower.push(i);
  }
  const upper: number[] = [];
  for (let k = survivors.length - 1; k >= 0; k--) {
    const i = survivors[k];
    while (upper.length >= 2 && turn(upper[upper.length - 2], upper[upper.length - 1], i) >= 0) upper.pop();
    upper.push(i);
  }
  chain.push(...lower.slice(0, -1), ...upper.slice(0, -1));
  // start from the lowest, then leftmost vertex
  let first = 0;
  for (let k = 1; k < chain.length; k++) {
    const a = chain[k];
    const b = chain[first];
    if (xy[2 * a + 1] < xy[2 * b + 1] || (xy[2 * a + 1] === xy[2 * b + 1] && xy[2 * a] < xy[2 * b]))
      first = k;
  }
  return Int32Array.from([...chain.slice(first), ...chain.slice(0, first)]);
}

/** Site i strictly inside the counter-clockwise convex polygon `corners` (exact). */
function strictlyInside(xy: Float64Array, corners: number[], i: number): boolean {
  if (corners.length < 3) return false;
  const x = xy[2 * i];
  const y = xy[2 * i + 1];
  for (let k = 0; k < corners.length; k++) {
    const a = corners[k];
    const b = corners[(k + 1) % corners.length];
    // strictly left of a → b, i.e. clockwise-negative for robust-predicates
    if (orient2d(xy[2 * a], xy[2 * a + 1], xy[2 * b], xy[2 * b + 1], x, y) >= 0) return false;
  }
  return true;
}
