// Clipping Voronoi cells to polygonal regions, against jsts (JTS) on seeded random sites.
import { type Box, clipBox, GeometryBuilder, GeometryType, uniqueSites } from '@geoframe/core';
import {
  type ClipCounts,
  clipCellsToRegion,
  type MultiPolygonBuffers,
  type PolygonBuffers,
  prepareClipRegion,
  voronoiCells,
} from '@geoframe/cpu';
import { generatePoints, SeededRandom } from '@geoframe/testing';
import Coordinate from 'jsts/org/locationtech/jts/geom/Coordinate.js';
import GeometryFactory from 'jsts/org/locationtech/jts/geom/GeometryFactory.js';
import { describe, expect, test } from 'vitest';
import { zeroClipCounts } from '../src/clip/clip-cells.js';
import {
  circle,
  jstsBox,
  jstsCell,
  jstsUnion,
  multiPolygonColumn,
  orientationProblem,
  outGeometryArea,
  type Poly,
  samplePolygon,
  square,
  star,
} from './clip-helpers.js';
import { ringContains } from './voronoi-helpers.js';

const factory = new GeometryFactory();
const sites = uniqueSites(generatePoints('uniform', 400, 11)).xy;
const n = sites.length / 2;
const box = clipBox(sites);
const cells = voronoiCells(sites, box);

/** Distance from site 0 to its nearest neighbour: squares a tenth of it fit in cell 0. */
const near = (() => {
  let d = Infinity;
  for (let j = 1; j < n; j++)
    d = Math.min(d, Math.hypot(sites[2 * j] - sites[0], sites[2 * j + 1] - sites[1]));
  return d;
})();
const [sx, sy] = [sites[0], sites[1]];
const around = (f: number) => square(sx - f * near, sy - f * near, 2 * f * near);
const reversed = (ring: [number, number][]) => [...ring].reverse();
const huge = square(-1e5, -1e5, 2e5);

interface Scenario {
  name: string;
  rows: (Poly[] | null)[];
  /** What the path counts must be, where the scenario fixes them. */
  expectCounts?: Partial<ClipCounts>;
}

const scenarios: Scenario[] = [
  { name: 'a concave star', rows: [[[star(500, 500, 450, 150, 7)]]] },
  {
    name: 'a square with a round hole',
    rows: [[[square(100, 100, 800), circle(500, 500, 250, 64, true)]]],
  },
  {
    name: 'a multipolygon of two disjoint parts, a null row, and an overlapping row',
    rows: [[[star(250, 250, 200, 80, 5)], [circle(750, 700, 200, 40)]], null, [[square(600, 550, 120)]], []],
  },
  {
    name: 'a region inside one cell',
    rows: [[[around(0.1)]]],
    expectCounts: { enclosing: 1, crossing: 0 },
  },
  {
    name: 'a region with a hole and an island inside one cell',
    rows: [[[around(0.2), reversed(around(0.1))]], [[around(0.02)]]],
    expectCounts: { enclosing: 1, crossing: 0 },
  },
  {
    name: 'a region covering everything',
    rows: [[[huge]]],
    expectCounts: { inside: n, crossing: 0, enclosing: 0 },
  },
  {
    name: 'a region covering everything but a hole and an island inside one cell',
    rows: [[[huge, around(0.1)]], [[around(0.03)]]],
    expectCounts: { inside: n - 1, enclosing: 1, crossing: 0 },
  },
  {
    name: 'a region disjoint from all cells',
    rows: [[[square(1e4, 1e4, 10)]]],
    expectCounts: { outsideBox: n, crossing: 0 },
  },
];

describe.each(scenarios)('$name', ({ rows, expectCounts }) => {
  const region = prepareClipRegion(multiPolygonColumn(rows));
  const counts = zeroClipCounts();
  const out = clipCellsToRegion(cells, region, counts);
  const reference = jstsUnion(rows);

  test('one geometry per cell; rings closed, exteriors CCW, holes CW', () => {
    expect(out.geometryOffsets.length).toBe(n + 1);
    expect(orientationProblem(out)).toBeNull();
    const total = counts.outsideBox + counts.outside + counts.inside + counts.enclosing + counts.crossing;
    expect(total).toBe(n);
    if (expectCounts) expect(counts).toMatchObject(expectCounts);
  });

  test('areas and part counts match jsts, cell by cell and in total', () => {
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const cell = jstsCell(cells.coords, cells.ringOffsets, i);
      const ref = cell.intersection(reference);
      const a = outGeometryArea(out, i);
      sum += a;
      expect(a).toBeCloseTo(ref.getArea(), 6);
      expect(polygonCount(out, i)).toBe(partsWithArea(ref));
    }
    const all = jstsBox(box.minX, box.minY, box.maxX, box.maxY).intersection(reference).getArea();
    expect(Math.abs(sum - all)).toBeLessThanOrEqual(1e-9 * Math.max(1, all));
  });

  test('sampled points of every piece lie in its cell and in the region', () => {
    const rng = new SeededRandom(5);
    for (let i = 0; i < n; i++) {
      for (let p = out.geometryOffsets[i]; p < out.geometryOffsets[i + 1]; p++) {
        for (const [x, y] of samplePolygon(out, p, 4, rng)) {
          expect(ringContains(cells, i, x, y)).toBe(true);
          expect(reference.contains(factory.createPoint(new Coordinate(x, y)))).toBe(true);
        }
      }
    }
  });

  test('cells inside the region are copied bit for bit; cells outside it are empty', () => {
    for (let i = 0; i < n; i++) {
      const cell = jstsCell(cells.coords, cells.ringOffsets, i);
      if (!cell.intersects(reference)) {
        expect(polygonCount(out, i)).toBe(0);
      } else if (reference.contains(cell)) {
        expect(polygonCount(out, i)).toBe(1);
        const p = out.geometryOffsets[i];
        expect(out.polygonOffsets[p + 1] - out.polygonOffsets[p]).toBe(1);
        const r = out.polygonOffsets[p];
        const got = out.coords.subarray(2 * out.ringOffsets[r], 2 * out.ringOffsets[r + 1]);
        const want = cells.coords.subarray(2 * cells.ringOffsets[i], 2 * cells.ringOffsets[i + 1]);
        expect(Array.from(got)).toEqual(Array.from(want));
      }
    }
  });
});

describe('specific shapes', () => {
  // two sites: cell 0 is [0, 50] × [0, 100], cell 1 is [50, 100] × [0, 100]
  const twoSites = new Float64Array([25, 50, 75, 50]);
  const twoBox: Box = { minX: 0, minY: 0, maxX: 100, maxY: 100 };
  const twoCells = voronoiCells(twoSites, twoBox);

  test('a cell cut in two by a region gives a two-polygon multipolygon', () => {
    // two prongs joined below the box: inside the cell they are apart
    const prongs = [
      [-10, -10],
      [40, -10],
      [40, 110],
      [30, 110],
      [30, -5],
      [20, -5],
      [20, 110],
      [-10, 110],
    ] as [number, number][];
    const counts = zeroClipCounts();
    const out = clipCellsToRegion(twoCells, prepareClipRegion(multiPolygonColumn([[[prongs]]])), counts);
    expect(counts).toMatchObject({ crossing: 1, outsideBox: 1 });
    expect(orientationProblem(out)).toBeNull();
    expect(polygonCount(out, 0)).toBe(2);
    expect(polygonCount(out, 1)).toBe(0);
    const areas = [0, 1].map((p) => polygonArea(out, p)).sort((a, b) => a - b);
    expect(areas).toEqual([1000, 2000]);
  });

  test('a region that is exactly one cell gives that cell and nothing to its neighbour', () => {
    const out = clipCellsToRegion(twoCells, prepareClipRegion(multiPolygonColumn([[[square(0, 0, 50)]]])));
    expect(orientationProblem(out)).toBeNull();
    expect(polygonCount(out, 0)).toBe(1);
    expect(outGeometryArea(out, 0)).toBe(2500);
    expect(polygonCount(out, 1)).toBe(0);
  });

  test('a region edge along the shared cell edge, a vertex on the cell boundary', () => {
    const tri: [number, number][] = [
      [50, 20],
      [80, 50],
      [50, 80],
    ];
    const out = clipCellsToRegion(twoCells, prepareClipRegion(multiPolygonColumn([[[tri]]])));
    expect(polygonCount(out, 0)).toBe(0);
    expect(outGeometryArea(out, 1)).toBe(900);
  });

  test('a region crossing a cell with a hole crossing it too', () => {
    const rows: Poly[][] = [[[square(10, 10, 80), square(40, 30, 20)]]];
    const out = clipCellsToRegion(twoCells, prepareClipRegion(multiPolygonColumn(rows)));
    expect(orientationProblem(out)).toBeNull();
    expect(outGeometryArea(out, 0)).toBeCloseTo(40 * 80 - 10 * 20, 9);
    expect(outGeometryArea(out, 1)).toBeCloseTo(40 * 80 - 10 * 20, 9);
  });

  test('a hole wholly inside a crossing cell stays a hole', () => {
    const rows: Poly[][] = [[[square(10, 10, 80), square(20, 20, 10)]]];
    const out = clipCellsToRegion(twoCells, prepareClipRegion(multiPolygonColumn(rows)));
    expect(orientationProblem(out)).toBeNull();
    const p = out.geometryOffsets[0];
    expect(out.geometryOffsets[1] - p).toBe(1);
    expect(out.polygonOffsets[p + 1] - out.polygonOffsets[p]).toBe(2);
    expect(outGeometryArea(out, 0)).toBe(40 * 80 - 100);
  });

  test('no cells, an empty region, degenerate cells', () => {
    const region = prepareClipRegion(multiPolygonColumn([[[square(0, 0, 10)]]]));
    const none = clipCellsToRegion({ coords: new Float64Array(0), ringOffsets: new Int32Array(1) }, region);
    expect(Array.from(none.geometryOffsets)).toEqual([0]);
    const empty = clipCellsToRegion(twoCells, prepareClipRegion(multiPolygonColumn([null, []])));
    expect(Array.from(empty.geometryOffsets)).toEqual([0, 0, 0]);
    // a cell of two points (not a polygon) gives an empty result
    const flat: PolygonBuffers = {
      coords: new Float64Array([1, 1, 2, 2, 1, 1]),
      ringOffsets: new Int32Array([0, 3]),
    };
    expect(Array.from(clipCellsToRegion(flat, region).geometryOffsets)).toEqual([0, 0]);
  });

  test('cell buffers whose offsets do not start at 0 (a slice) give the same results', () => {
    const region = prepareClipRegion(multiPolygonColumn([[[star(500, 500, 450, 150, 7)]]]));
    const whole = clipCellsToRegion(cells, region);
    const sliced = clipCellsToRegion(
      { coords: cells.coords, ringOffsets: cells.ringOffsets.subarray(100) },
      region,
    );
    expect(sliced.geometryOffsets.length).toBe(n - 100 + 1);
    for (let i = 100; i < n; i++) expect(geometryCoords(sliced, i - 100)).toEqual(geometryCoords(whole, i));
  });

  test('a Z region clips like its 2D shadow', () => {
    const ring = star(500, 500, 450, 150, 7);
    const b = new GeometryBuilder(GeometryType.Polygon, 'xyz');
    b.beginGeometry(GeometryType.Polygon);
    b.beginPart();
    b.beginRing();
    for (const [x, y] of [...ring, ring[0]]) b.pushCoord(x, y, 7);
    b.endGeometry();
    const withZ = clipCellsToRegion(cells, prepareClipRegion(b.finish()));
    const flat = clipCellsToRegion(cells, prepareClipRegion(multiPolygonColumn([[[ring]]])));
    expect(Array.from(withZ.coords)).toEqual(Array.from(flat.coords));
    expect(Array.from(withZ.geometryOffsets)).toEqual(Array.from(flat.geometryOffsets));
  });
});

describe('10 000 cells', () => {
  test('counts per path and time, against the jsts area of region ∩ box', () => {
    const xy = uniqueSites(generatePoints('uniform', 10_000, 3)).xy;
    const bigBox = clipBox(xy);
    const many = voronoiCells(xy, bigBox);
    const rows: Poly[][] = [
      [[star(500, 500, 480, 220, 40), circle(500, 500, 150, 256, true)]],
      [[circle(500, 500, 60, 128)]],
      [[square(-300, -300, 200)]],
    ];
    const t0 = performance.now();
    const region = prepareClipRegion(multiPolygonColumn(rows));
    const t1 = performance.now();
    const counts = zeroClipCounts();
    const out = clipCellsToRegion(many, region, counts);
    const t2 = performance.now();
    const nCells = xy.length / 2;
    console.log(
      `clip ${nCells} cells: prepare ${(t1 - t0).toFixed(1)} ms, clip ${(t2 - t1).toFixed(1)} ms, ` +
        `paths ${JSON.stringify(counts)}`,
    );
    expect(orientationProblem(out)).toBeNull();
    expect(counts.outsideBox + counts.outside + counts.inside + counts.enclosing + counts.crossing).toBe(
      nCells,
    );
    expect(counts.crossing).toBeLessThan(nCells / 4);
    expect(counts.inside).toBeGreaterThan(0);
    let sum = 0;
    for (let i = 0; i < nCells; i++) sum += outGeometryArea(out, i);
    const all = jstsBox(bigBox.minX, bigBox.minY, bigBox.maxX, bigBox.maxY)
      .intersection(jstsUnion(rows))
      .getArea();
    expect(Math.abs(sum - all)).toBeLessThanOrEqual(1e-9 * all);
  });
});

function polygonCount(m: MultiPolygonBuffers, i: number): number {
  return m.geometryOffsets[i + 1] - m.geometryOffsets[i];
}

function polygonArea(m: MultiPolygonBuffers, p: number): number {
  const sub: MultiPolygonBuffers = { ...m, geometryOffsets: new Int32Array([p, p + 1]) };
  return outGeometryArea(sub, 0);
}

/** Polygons with positive area in a jsts result (touching cells give lines or points). */
function partsWithArea(g: import('jsts/org/locationtech/jts/geom/Geometry.js').default): number {
  let count = 0;
  for (let k = 0; k < g.getNumGeometries(); k++) if (g.getGeometryN(k).getArea() > 0) count++;
  return count;
}

function geometryCoords(m: MultiPolygonBuffers, i: number): number[][] {
  const rings: number[][] = [];
  for (let p = m.geometryOffsets[i]; p < m.geometryOffsets[i + 1]; p++) {
    for (let r = m.polygonOffsets[p]; r < m.polygonOffsets[p + 1]; r++) {
      rings.push(Array.from(m.coords.subarray(2 * m.ringOffsets[r], 2 * m.ringOffsets[r + 1])));
    }
  }
  return rings;
}
