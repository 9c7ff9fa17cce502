// Exact checks of Voronoi cells and Delaunay triangles for the property suite: every predicate is
// robust-predicates' exact orient2d/incircle on coordinates scaled by a power of two (exact), so
// magnitudes from 1e-300 to 1e300 neither underflow nor overflow in the checks themselves.
import type { GeoSeries } from '@geoframe/geo';
import { incircle, orient2d } from 'robust-predicates';

/** A power of two that brings the largest |value| of `arrays` to [0.5, 1) (1 when all are 0). */
export function unitScale(...arrays: ArrayLike<number>[]): number {
  let largest = 0;
  for (const a of arrays) for (let k = 0; k < a.length; k++) largest = Math.max(largest, Math.abs(a[k]));
  if (largest === 0 || !Number.isFinite(largest)) return 1;
  // 2^-1024 (for values near the float maximum) is subnormal but exact
  return 2 ** -(Math.floor(Math.log2(largest)) + 1);
}

function scaled(values: ArrayLike<number>, scale: number): Float64Array {
  const out = new Float64Array(values.length);
  for (let k = 0; k < values.length; k++) out[k] = values[k] * scale;
  return out;
}

/** Every row's single ring (polygon rows), scaled by `scale`; null for a null or empty row. */
export function ringsOf(series: GeoSeries, scale: number): (Float64Array | null)[] {
  const a = series.array;
  const out: (Float64Array | null)[] = [];
  for (let i = 0; i < a.length; i++) {
    if (!a.isValid(i) || a.isEmpty(i)) {
      out.push(null);
      continue;
    }
    const [s, e] = a.coordRange(i);
    const ring = new Float64Array(2 * (e - s));
    for (let k = s; k < e; k++) {
      ring[2 * (k - s)] = a.x(k);
      ring[2 * (k - s) + 1] = a.y(k);
    }
    out.push(scaled(ring, scale));
  }
  return out;
}

/** Exact orientation, positive for a counter-clockwise turn in y-up. */
function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return -orient2d(ax, ay, bx, by, cx, cy);
}

function onSegment(ax: number, ay: number, bx: number, by: number, px: number, py: number): boolean {
  return (
    orient(ax, ay, bx, by, px, py) === 0 &&
    Math.min(ax, bx) <= px &&
    px <= Math.max(ax, bx) &&
    Math.min(ay, by) <= py &&
    py <= Math.max(ay, by)
  );
}

/** 1 strictly inside the closed ring, 0 on its boundary, -1 outside (exact winding number). */
export function pointInRing(r: Float64Array, px: number, py: number): number {
  let winding = 0;
  const k = r.length / 2 - 1;
  for (let i = 0; i < k; i++) {
    const [ax, ay, bx, by] = [r[2 * i], r[2 * i + 1], r[2 * i + 2], r[2 * i + 3]];
    if (onSegment(ax, ay, bx, by, px, py)) return 0;
    if (ay <= py) {
      if (by > py && orient(ax, ay, bx, by, px, py) > 0) winding++;
    } else if (by <= py && orient(ax, ay, bx, by, px, py) < 0) winding--;
  }
  return winding !== 0 ? 1 : -1;
}

/** Signed area of a closed ring, summed relative to its first point. */
export function ringArea(r: Float64Array): number {
  const ox = r[0];
  const oy = r[1];
  let s = 0;
  for (let i = 0; i + 3 < r.length; i += 2) {
    s += (r[i] - ox) * (r[i + 3] - oy) - (r[i + 2] - ox) * (r[i + 1] - oy);
  }
  return s / 2;
}

function segmentsTouch(r: Float64Array, i: number, s: Float64Array, j: number): boolean {
  const [ax, ay, bx, by] = [r[2 * i], r[2 * i + 1], r[2 * i + 2], r[2 * i + 3]];
  const [cx, cy, dx, dy] = [s[2 * j], s[2 * j + 1], s[2 * j + 2], s[2 * j + 3]];
  const d1 = orient(ax, ay, bx, by, cx, cy);
  const d2 = orient(ax, ay, bx, by, dx, dy);
  const d3 = orient(cx, cy, dx, dy, ax, ay);
  const d4 = orient(cx, cy, dx, dy, bx, by);
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  return (
    onSegment(ax, ay, bx, by, cx, cy) ||
    onSegment(ax, ay, bx, by, dx, dy) ||
    onSegment(cx, cy, dx, dy, ax, ay) ||
    onSegment(cx, cy, dx, dy, bx, by)
  );
}

/**
 * Why a closed ring is not a valid polygon shell, or null: fewer than 4 points, a non-finite
 * coordinate, not closed, a zero-length edge, two non-adjacent edges touching, or not
 * counter-clockwise.
 */
export function ringProblem(r: Float64Array): string | null {
  const k = r.length / 2;
  if (k < 4) return `${k} points`;
  if (!r.every(Number.isFinite)) return 'a non-finite coordinate';
  if (r[0] !== r[r.length - 2] || r[1] !== r[r.length - 1]) return 'not closed';
  const edges = k - 1;
  for (let a = 0; a < edges; a++) {
    if (r[2 * a] === r[2 * a + 2] && r[2 * a + 1] === r[2 * a + 3]) return `edge ${a} has zero length`;
    for (let b = a + 2; b < edges; b++) {
      if (a === 0 && b === edges - 1) continue;
      if (segmentsTouch(r, a, r, b)) return `edges ${a} and ${b} touch`;
    }
  }
  if (!(ringArea(r) > 0)) return 'not counter-clockwise';
  return null;
}

function properCross(r: Float64Array, i: number, s: Float64Array, j: number): boolean {
  const [ax, ay, bx, by] = [r[2 * i], r[2 * i + 1], r[2 * i + 2], r[2 * i + 3]];
  const [cx, cy, dx, dy] = [s[2 * j], s[2 * j + 1], s[2 * j + 2], s[2 * j + 3]];
  return (
    orient(ax, ay, bx, by, cx, cy) * orient(ax, ay, bx, by, dx, dy) < 0 &&
    orient(cx, cy, dx, dy, ax, ay) * orient(cx, cy, dx, dy, bx, by) < 0
  );
}

/**
 * Whether some vertex of `r`, or the midpoint of an edge of `r` that does not lie along an edge of
 * `s`, lies strictly inside `s`. (A rounded midpoint of an edge two cells share may fall an ulp
 * off it, so shared edges are recognised exactly instead.)
 */
function pokesInto(r: Float64Array, s: Float64Array): boolean {
  for (let i = 0; i + 3 < r.length; i += 2) {
    if (pointInRing(s, r[i], r[i + 1]) > 0) return true;
    if (alongEdgeOf(s, r[i], r[i + 1], r[i + 2], r[i + 3])) continue;
    if (pointInRing(s, (r[i] + r[i + 2]) / 2, (r[i + 1] + r[i + 3]) / 2) > 0) return true;
  }
  return false;
}

/** Whether the segment p–q lies on the line of an edge of `s` and overlaps that edge. */
function alongEdgeOf(s: Float64Array, px: number, py: number, qx: number, qy: number): boolean {
  for (let j = 0; j + 3 < s.length; j += 2) {
    const [cx, cy, dx, dy] = [s[j], s[j + 1], s[j + 2], s[j + 3]];
    if (orient(cx, cy, dx, dy, px, py) !== 0 || orient(cx, cy, dx, dy, qx, qy) !== 0) continue;
    if (onSegment(cx, cy, dx, dy, px, py) || onSegment(cx, cy, dx, dy, qx, qy)) return true;
    if (onSegment(px, py, qx, qy, cx, cy)) return true;
  }
  return false;
}

/**
 * Pairs of rings (simple, counter-clockwise) whose interiors intersect, exactly: an edge crossing
 * another properly, or a vertex or edge midpoint strictly inside the other. Only pairs whose
 * boxes overlap are tested (a sweep over x).
 */
export function overlappingPairs(rings: (Float64Array | null)[]): [number, number][] {
  const boxes = rings.map((r) => {
    if (r === null) return null;
    let [x0, y0, x1, y1] = [r[0], r[1], r[0], r[1]];
    for (let k = 0; k < r.length; k += 2) {
      x0 = Math.min(x0, r[k]);
      x1 = Math.max(x1, r[k]);
      y0 = Math.min(y0, r[k + 1]);
      y1 = Math.max(y1, r[k + 1]);
    }
    return [x0, y0, x1, y1];
  });
  const order = rings.map((_, i) => i).filter((i) => boxes[i] !== null);
  order.sort((a, b) => (boxes[a] as number[])[0] - (boxes[b] as number[])[0]);
  const out: [number, number][] = [];
  for (let p = 0; p < order.length; p++) {
    const a = order[p];
    const ba = boxes[a] as number[];
    for (let q = p + 1; q < order.length; q++) {
      const b = order[q];
      const bb = boxes[b] as number[];
      if (bb[0] >= ba[2]) break;
      if (bb[1] >= ba[3] || ba[1] >= bb[3] || bb[2] <= ba[0]) continue;
      if (interiorsIntersect(rings[a] as Float64Array, rings[b] as Float64Array)) out.push([a, b]);
    }
  }
  return out;
}

function interiorsIntersect(r: Float64Array, s: Float64Array): boolean {
  for (let i = 0; i + 1 < r.length / 2; i++) {
    for (let j = 0; j + 1 < s.length / 2; j++) if (properCross(r, i, s, j)) return true;
  }
  return pokesInto(r, s) || pokesInto(s, r);
}

/**
 * Number of sites on the convex hull's boundary (vertices and sites on its edges), exactly; 0
 * when all sites are collinear.
 */
export function hullBoundaryCount(xy: Float64Array): number {
  const n = xy.length / 2;
  const idx = Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => xy[2 * a] - xy[2 * b] || xy[2 * a + 1] - xy[2 * b + 1],
  );
  const turn = (a: number, b: number, c: number) =>
    orient(xy[2 * a], xy[2 * a + 1], xy[2 * b], xy[2 * b + 1], xy[2 * c], xy[2 * c + 1]);
  const chain = (list: number[]) => {
    const h: number[] = [];
    for (const p of list) {
      while (h.length >= 2 && turn(h[h.length - 2], h[h.length - 1], p) <= 0) h.pop();
      h.push(p);
    }
    return h;
  };
  const lower = chain(idx);
  const upper = chain([...idx].reverse());
  const hull = [...lower.slice(0, -1), ...upper.slice(0, -1)];
  if (hull.length < 3) return 0;
  let count = 0;
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < hull.length; k++) {
      const a = hull[k];
      const b = hull[(k + 1) % hull.length];
      const [ax, ay, bx, by] = [xy[2 * a], xy[2 * a + 1], xy[2 * b], xy[2 * b + 1]];
      if (onSegment(ax, ay, bx, by, xy[2 * i], xy[2 * i + 1])) {
        count++;
        break;
      }
    }
  }
  return count;
}

/**
 * Problems of Delaunay triangle rings over the unique sites `xy` (both scaled alike): a triangle
 * that is not counter-clockwise or has a corner that is not a site, a count other than
 * 2n − 2 − h, or an interior edge failing the exact empty-circle test.
 */
export function delaunayProblems(xy: Float64Array, rings: (Float64Array | null)[]): string[] {
  const n = xy.length / 2;
  const site = new Map<string, number>();
  for (let i = 0; i < n; i++) site.set(`${xy[2 * i]},${xy[2 * i + 1]}`, i);
  const problems: string[] = [];
  const h = hullBoundaryCount(xy);
  const expected = h === 0 ? 0 : 2 * n - 2 - h;
  if (rings.length !== expected)
    problems.push(`${rings.length} triangles, expected 2n − 2 − h = ${expected}`);
  const opposite = new Map<string, number[]>();
  const p = (i: number) => [xy[2 * i], xy[2 * i + 1]] as const;
  rings.forEach((r, t) => {
    if (r === null || r.length !== 8) {
      problems.push(`triangle ${t} is not a ring of 4 points`);
      return;
    }
    const v = [0, 1, 2].map((k) => site.get(`${r[2 * k]},${r[2 * k + 1]}`));
    if (v.some((s) => s === undefined)) {
      problems.push(`triangle ${t} has a corner that is not a site`);
      return;
    }
    const [a, b, c] = v as number[];
    if (!(orient(...p(a), ...p(b), ...p(c)) > 0)) problems.push(`triangle ${t} is not counter-clockwise`);
    for (const [u, w, o] of [
      [a, b, c],
      [b, c, a],
      [c, a, b],
    ]) {
      const key = u < w ? `${u},${w}` : `${w},${u}`;
      const list = opposite.get(key) ?? [];
      list.push(u, w, o);
      opposite.set(key, list);
    }
  });
  for (const [key, list] of opposite) {
    if (list.length === 3) continue;
    if (list.length !== 6) {
      problems.push(`edge ${key} is in ${list.length / 3} triangles`);
      continue;
    }
    const [u, w, o, , , o2] = list;
    // (u, w, o) is counter-clockwise: o2 must not lie strictly inside its circle
    if (incircle(...p(u), ...p(w), ...p(o), ...p(o2)) > 0)
      problems.push(`edge ${key} fails the empty-circle test`);
  }
  return problems;
}

/**
 * The largest distance from a vertex of one ring to the other ring's boundary, both ways
 * (vertex-to-segment, float): how far apart two versions of a cell are.
 */
export function ringDistance(r: Float64Array, s: Float64Array): number {
  const oneWay = (a: Float64Array, b: Float64Array) => {
    let worst = 0;
    for (let i = 0; i < a.length; i += 2) {
      let best = Number.POSITIVE_INFINITY;
      for (let j = 0; j + 3 < b.length; j += 2) {
        best = Math.min(best, segmentDistance(a[i], a[i + 1], b[j], b[j + 1], b[j + 2], b[j + 3]));
      }
      worst = Math.max(worst, best);
    }
    return worst;
  };
  return Math.max(oneWay(r, s), oneWay(s, r));
}

function segmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const l = dx * dx + dy * dy;
  const t = l === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / l));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}
