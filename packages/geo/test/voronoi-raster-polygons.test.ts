import { GeoSeries, VoronoiRaster } from '@geoframe/geo';
import { generatePoints, mulberry32 } from '@geoframe/testing';
import { describe, expect, it } from 'vitest';

function pointsOf(xy: Float64Array): GeoSeries {
  const n = xy.length / 2;
  return GeoSeries.fromXY(
    Float64Array.from({ length: n }, (_, i) => xy[2 * i]),
    Float64Array.from({ length: n }, (_, i) => xy[2 * i + 1]),
  );
}

type Ring = number[]; // x0, y0, x1, y1, … (closed)

/** The rings of row `i`, grouped by polygon (Polygon and MultiPolygon columns). */
function polygonsOf(series: GeoSeries, i: number): Ring[][] {
  const a = series.array;
  if (a.isNull(i) || a.isEmpty(i)) return [];
  const { geometryOffsets: g, partOffsets: parts, ringOffsets: rings } = a.nestedOffsets();
  const out: Ring[][] = [];
  for (let p = g[i]; p < g[i + 1]; p++) {
    const polygon: Ring[] = [];
    for (let r = parts[p]; r < parts[p + 1]; r++) {
      const ring: Ring = [];
      for (let k = rings[r]; k < rings[r + 1]; k++)
        ring.push(a.coords[k * a.stride], a.coords[k * a.stride + 1]);
      polygon.push(ring);
    }
    out.push(polygon);
  }
  return out;
}

function signedArea(ring: Ring): number {
  let s = 0;
  for (let k = 0; k + 3 < ring.length; k += 2) s += ring[k] * ring[k + 3] - ring[k + 2] * ring[k + 1];
  return s / 2;
}

function perimeter(ring: Ring): number {
  let s = 0;
  for (let k = 0; k + 3 < ring.length; k += 2)
    s += Math.hypot(ring[k + 2] - ring[k], ring[k + 3] - ring[k + 1]);
  return s;
}

/** Sutherland–Hodgman: `ring` clipped to the convex counter-clockwise `clip`; its signed area is exact. */
function clipToConvex(ring: Ring, clip: Ring): Ring {
  let pts = ring.slice(0, -2);
  for (let e = 0; e + 3 < clip.length && pts.length > 0; e += 2) {
    const [ax, ay, bx, by] = [clip[e], clip[e + 1], clip[e + 2], clip[e + 3]];
    const side = (x: number, y: number) => (bx - ax) * (y - ay) - (by - ay) * (x - ax);
    const next: number[] = [];
    for (let k = 0; k < pts.length; k += 2) {
      const [px, py] = [pts[k], pts[k + 1]];
      const [qx, qy] = [pts[(k + 2) % pts.length], pts[(k + 3) % pts.length]];
      const sp = side(px, py);
      const sq = side(qx, qy);
      if (sp >= 0) next.push(px, py);
      if (sp >= 0 !== sq >= 0) {
        const t = sp / (sp - sq);
        next.push(px + t * (qx - px), py + t * (qy - py));
      }
    }
    pts = next;
  }
  return pts.length > 0 ? [...pts, pts[0], pts[1]] : [];
}

/** Even-odd point in the rings of row `i`. */
function contains(series: GeoSeries, i: number, x: number, y: number): boolean {
  let inside = false;
  for (const polygon of polygonsOf(series, i)) {
    for (const ring of polygon) {
      for (let k = 0; k + 3 < ring.length; k += 2) {
        const [ax, ay, bx, by] = [ring[k], ring[k + 1], ring[k + 2], ring[k + 3]];
        if (ay > y !== by > y && x < ax + ((y - ay) * (bx - ax)) / (by - ay)) inside = !inside;
      }
    }
  }
  return inside;
}

/** Checks ring structure: closed, no repeated vertex, outer counter-clockwise, holes clockwise. */
function checkRings(series: GeoSeries): void {
  for (let i = 0; i < series.length; i++) {
    for (const polygon of polygonsOf(series, i)) {
      polygon.forEach((ring, r) => {
        const n = ring.length / 2;
        expect(n).toBeGreaterThanOrEqual(5);
        expect([ring[0], ring[1]]).toEqual([ring[ring.length - 2], ring[ring.length - 1]]);
        const seen = new Set<string>();
        for (let k = 0; k < n - 1; k++) seen.add(`${ring[2 * k]},${ring[2 * k + 1]}`);
        expect(seen.size).toBe(n - 1);
        expect(Math.sign(signedArea(ring))).toBe(r === 0 ? 1 : -1);
      });
    }
  }
}

/** A raster of hand-made labels over [0, w] × [0, h] (unit pixels) for `rows` rows. */
function handRaster(rows: number, picture: string[]): VoronoiRaster {
  const height = picture.length;
  const width = picture[0].length;
  const labels = new Int32Array(width * height);
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++)
      labels[r * width + c] = picture[r][c] === '.' ? -1 : Number(picture[r][c]);
  }
  const coords = new Float64Array(2 * rows);
  return new VoronoiRaster({
    labels,
    distance: null,
    width,
    height,
    depth: 1,
    dims: 2,
    bounds: [0, 0, width, height],
    mode: 'exact',
    stats: { passes: 1, processed: labels.length },
    path: 'cpu',
    toSeries: (cells) => new GeoSeries(cells),
    sites: {
      coords: coords.map((_, k) => k + 0.5),
      dims: 2,
      rows: Int32Array.from({ length: rows }, (_, i) => i),
    },
    rowCount: rows,
    crs: null,
  });
}

describe('VoronoiRaster.toPolygons', () => {
  it('agrees with voronoiPolygons cells: symmetric difference ≤ perimeter × pixel diagonal + π·diag²/4', async () => {
    // Every pixel whose centre lies in a cell joins that cell, so the two differ only within half a
    // pixel diagonal r of the cell's boundary: a band of area ≤ 2r·perimeter + πr² around a convex cell.
    for (const [kind, n, w, h] of [
      ['uniform', 60, 160, 120],
      ['clusters', 80, 200, 200],
      ['lattice', 49, 90, 70],
    ] as const) {
      const series = pointsOf(generatePoints(kind, n, 3));
      const raster = await series.voronoiRaster({ width: w, height: h, device: 'cpu' });
      const [xmin, ymin, xmax, ymax] = raster.bounds;
      const box = GeoSeries.fromWKT([
        `POLYGON ((${xmin} ${ymin}, ${xmax} ${ymin}, ${xmax} ${ymax}, ${xmin} ${ymax}, ${xmin} ${ymin}))`,
      ]);
      const exact = await series.voronoiPolygons({ ordered: true, clipTo: box, device: 'cpu' });
      const cells = raster.toPolygons();
      expect(cells.length).toBe(n);
      checkRings(cells);
      const diag = Math.hypot((xmax - xmin) / w, (ymax - ymin) / h);
      const areas = cells.area();
      let total = 0;
      for (let i = 0; i < n; i++) {
        total += areas[i];
        const exactRings = polygonsOf(exact, i);
        if (exactRings.length === 0) continue; // a duplicate's or a lattice tie's cell may be empty on both sides
        const cell = exactRings[0][0];
        const cellArea = signedArea(cell);
        let overlap = 0;
        for (const polygon of polygonsOf(cells, i))
          for (const ring of polygon) overlap += signedArea(clipToConvex(ring, cell));
        const symmetricDifference = cellArea + areas[i] - 2 * overlap;
        expect(symmetricDifference).toBeLessThanOrEqual(
          perimeter(cell) * diag + (Math.PI * diag * diag) / 4 + 1e-9,
        );
      }
      expect(total).toBeCloseTo((xmax - xmin) * (ymax - ymin), 6);
    }
  });

  it('every pixel centre lies in its own row’s polygon and in no other', async () => {
    const series = pointsOf(generatePoints('clusters', 30, 9));
    const raster = await series.voronoiRaster({ width: 60, height: 45, mode: 'jfa', device: 'cpu' });
    const cells = raster.toPolygons();
    checkRings(cells);
    const random = mulberry32(5);
    for (let k = 0; k < 400; k++) {
      const p = Math.floor(random() * raster.labels.length);
      const [x, y] = raster.pixelCentre(p);
      for (let i = 0; i < 30; i++) expect(contains(cells, i, x, y)).toBe(raster.labels[p] === i);
    }
  });

  it('holes, several pieces (MultiPolygon), saddles, empty and null rows', () => {
    const raster = handRaster(5, [
      '000000', //
      '011100',
      '012103',
      '011100',
      '000030',
      '330300',
    ]);
    const cells = raster.toPolygons();
    // each row typed by its own pieces (a mixed column), the empty row a Polygon, as shapely types it
    expect(cells.geomType).toEqual(['Polygon', 'Polygon', 'Polygon', 'MultiPolygon', 'Polygon']);
    expect(cells.array.type).toBe('mixed');
    checkRings(cells);
    expect([...cells.area()]).toEqual([22, 8, 1, 5, 0]);
    // label 0: one polygon with two holes: the block of 1s (around the 2) and the single 3 at
    // (row 4, col 4), which touches the outer ring at its corner shared with the 3 at (5, 3)
    expect(polygonsOf(cells, 0).map((p) => p.length)).toEqual([3]);
    expect(polygonsOf(cells, 1).map((p) => p.length)).toEqual([2]); // 1s around the 2
    // label 3: four 4-connected pieces, two of them touching only at a corner
    expect(polygonsOf(cells, 3).map((p) => p.length)).toEqual([1, 1, 1, 1]);
    expect(cells.isEmpty[4]).toBe(1);
  });

  it('a diagonal pinch within one component gives a hole touching the outer ring at a vertex', () => {
    // 1s form a ring around the '0' at (1, 1) except the corner at (2, 2), where they touch diagonally
    const raster = handRaster(2, ['111', '101', '110']);
    const cells = raster.toPolygons();
    checkRings(cells);
    const [polygon] = polygonsOf(cells, 1);
    expect(polygon.length).toBe(2); // outer ring and the hole of the '0'
    expect(signedArea(polygon[0]) + signedArea(polygon[1])).toBe(7);
    expect(polygonsOf(cells, 0).length).toBe(2); // the centre pixel and the corner pixel
  });

  it('Polygon column when no row has several pieces; null and duplicate rows', async () => {
    const series = GeoSeries.fromWKT(['POINT (0 0)', null, 'POINT (10 0)', 'POINT (0 0)', 'POINT (5 9)']);
    const raster = await series.voronoiRaster({ width: 20, height: 18, device: 'cpu' });
    const cells = raster.toPolygons();
    expect(cells.geomType).toEqual(['Polygon', null, 'Polygon', 'Polygon', 'Polygon']);
    expect(cells.toWKT()[3]).toBe(cells.toWKT()[0]); // the duplicate shares the earlier row's cell
    const area = cells.area();
    expect(area[0] + area[2] + area[4]).toBeCloseTo(10 * 9, 9);
  });
});
