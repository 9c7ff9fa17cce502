// Seeded WKT for the ops tests: polygons with holes, multipolygons, lines, and points placed
// exactly on vertices and edges, at small and huge offsets.
import { mulberry32 } from '@geoframe/testing';

const ring = (pts: number[][]) => `(${[...pts, pts[0]].map(([x, y]) => `${x} ${y}`).join(', ')})`;

/** An axis-aligned square with a square hole at (x, y), integer corners. */
export function squareWithHole(x: number, y: number, size: number): string {
  const outer = [
    [x, y],
    [x + size, y],
    [x + size, y + size],
    [x, y + size],
  ];
  const h = size / 4;
  const hole = [
    [x + h, y + h],
    [x + h, y + 3 * h],
    [x + 3 * h, y + 3 * h],
    [x + 3 * h, y + h],
  ];
  return `POLYGON (${ring(outer)}, ${ring(hole)})`;
}

/** A star-shaped polygon with integer vertices around (cx, cy). */
export function star(rand: () => number, cx: number, cy: number, r: number, n = 7): string {
  const pts: number[][] = [];
  for (let k = 0; k < n; k++) {
    const a = (2 * Math.PI * k) / n;
    const rr = r * (0.4 + 0.6 * rand());
    pts.push([Math.round(cx + rr * Math.cos(a)), Math.round(cy + rr * Math.sin(a))]);
  }
  return `POLYGON (${ring(pts)})`;
}

/** Parsed integer vertices of a WKT (every number pair), for placing points on them. */
export function verticesOf(wkt: string): number[][] {
  const nums = wkt.match(/-?\d+(\.\d+)?(e[-+]?\d+)?/gi)!.map(Number);
  const out: number[][] = [];
  for (let k = 0; k + 1 < nums.length; k += 2) out.push([nums[k], nums[k + 1]]);
  return out;
}

/**
 * Points for one polygon: on each vertex, on the midpoint of each edge (exact: integer vertices,
 * even differences or halves that f64 holds), near-misses one ulp away, and random ones around.
 */
export function probePoints(rand: () => number, wkt: string, count: number): string[] {
  const v = verticesOf(wkt);
  const out: string[] = [];
  for (let k = 0; k + 1 < v.length; k++) {
    const [ax, ay] = v[k];
    const [bx, by] = v[k + 1];
    out.push(`POINT (${ax} ${ay})`, `POINT (${(ax + bx) / 2} ${(ay + by) / 2})`);
    const mx = (ax + bx) / 2;
    out.push(`POINT (${mx + Number.EPSILON * Math.max(1, Math.abs(mx)) * 2} ${(ay + by) / 2})`);
  }
  const xs = v.map((p) => p[0]);
  const ys = v.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  for (let k = 0; k < count; k++) {
    out.push(`POINT (${x0 - 1 + (x1 - x0 + 2) * rand()} ${y0 - 1 + (y1 - y0 + 2) * rand()})`);
  }
  return out;
}

export { mulberry32 };
