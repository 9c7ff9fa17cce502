// Clipping line segments (Voronoi edges) to polygonal regions: exact hand cases, jsts references
// on seeded random segments, and the onlyEdges + clipTo path of voronoiPolygons.

import { clipLinesToRegion, type LineBuffers, prepareClipRegion } from '@geoframe/cpu';
import { SeededRandom } from '@geoframe/testing';
import Coordinate from 'jsts/org/locationtech/jts/geom/Coordinate.js';
import type Geometry from 'jsts/org/locationtech/jts/geom/Geometry.js';
import GeometryFactory from 'jsts/org/locationtech/jts/geom/GeometryFactory.js';
import { describe, expect, test } from 'vitest';
import { circle, jstsUnion, multiPolygonColumn, type Poly, type Ring, square, star } from './clip-helpers.js';

const factory = new GeometryFactory();

/** Two-point parts from [x0, y0, x1, y1] quadruples. */
function segments(list: number[][]): LineBuffers {
  return {
    coords: Float64Array.from(list.flat()),
    partOffsets: Int32Array.from({ length: list.length + 1 }, (_, k) => 2 * k),
  };
}

/** The output as [x0, y0, x1, y1] quadruples, checking that every part has two points. */
function pieces(lines: LineBuffers): number[][] {
  const out: number[][] = [];
  const n = lines.partOffsets.length - 1;
  for (let i = 0; i < n; i++) {
    expect(lines.partOffsets[i + 1] - lines.partOffsets[i]).toBe(2);
    const k = lines.partOffsets[i];
    out.push(Array.from(lines.coords.subarray(2 * k, 2 * k + 4)));
  }
  return out;
}

const len = (s: number[]) => Math.hypot(s[2] - s[0], s[3] - s[1]);
const total = (lines: LineBuffers) => pieces(lines).reduce((a, s) => a + len(s), 0);

function clip(list: number[][], rows: (Poly[] | null)[]): number[][] {
  return pieces(clipLinesToRegion(segments(list), prepareClipRegion(multiPolygonColumn(rows))));
}

function randomSegments(
  rng: SeededRandom,
  count: number,
  lo: number,
  hi: number,
  maxLen: number,
): number[][] {
  const list: number[][] = [];
  for (let i = 0; i < count; i++) {
    const x = lo + (hi - lo) * rng.next();
    const y = lo + (hi - lo) * rng.next();
    const a = 2 * Math.PI * rng.next();
    const r = maxLen * rng.next();
    list.push([x, y, x + r * Math.cos(a), y + r * Math.sin(a)]);
  }
  return list;
}

describe('clipLinesToRegion: exact cases on squares', () => {
  const sq: Poly[] = [[square(0, 0, 10)]];

  test('crossings with axis-aligned sides are exact; the order along the segment is kept', () => {
    expect(clip([[-5, 5, 15, 5]], [sq])).toEqual([[0, 5, 10, 5]]);
    expect(clip([[15, 5, -5, 5]], [sq])).toEqual([[10, 5, 0, 5]]);
    expect(clip([[5, -3, 5, 4]], [sq])).toEqual([[5, 0, 5, 4]]);
    expect(clip([[-1, -1, 11, 11]], [sq])).toEqual([[0, 0, 10, 10]]);
  });

  test('the boundary belongs to the region: pieces along a side are kept, point contacts dropped', () => {
    expect(clip([[-5, 0, 15, 0]], [sq])).toEqual([[0, 0, 10, 0]]);
    expect(clip([[3, 10, 7, 10]], [sq])).toEqual([[3, 10, 7, 10]]);
    // along a side, then into the interior: one part
    expect(clip([[-4, 10, 5, 10]], [sq])).toEqual([[0, 10, 5, 10]]);
    expect(clip([[2, 0, 8, 0, 8, 0, 8, 6]], [sq])).toEqual([[2, 0, 8, 0]]); // a zero-length part too
    // touching a corner, a side from outside, or ending on a side: nothing / the inside only
    expect(clip([[-5, 5, 5, -5]], [sq])).toEqual([]);
    expect(clip([[-5, 5, 0, 5]], [sq])).toEqual([]);
    expect(clip([[10, 2, 12, 2]], [sq])).toEqual([]);
    expect(clip([[5, 5, 10, 5]], [sq])).toEqual([[5, 5, 10, 5]]);
  });

  test('holes cut a segment in two; sides of holes are boundary too', () => {
    const holed: Poly[] = [[square(0, 0, 10), square(3, 3, 4)]];
    expect(clip([[-1, 5, 11, 5]], [holed])).toEqual([
      [0, 5, 3, 5],
      [7, 5, 10, 5],
    ]);
    expect(clip([[1, 3, 9, 3]], [holed])).toEqual([[1, 3, 9, 3]]);
    expect(clip([[4, 4, 6, 6]], [holed])).toEqual([]);
  });

  test('a segment through a reflex vertex, inside on both sides, stays one bit-exact part', () => {
    // an L: the reflex vertex (5, 5) lies on the segment from (1, 9) to (9, 1)
    const l: Ring = [
      [0, 0],
      [10, 0],
      [10, 5],
      [5, 5],
      [5, 10],
      [0, 10],
    ];
    const seg = [1, 9, 9, 1];
    expect(clip([seg], [[[l]]])).toEqual([seg]);
    // through the notch: in, out at the corner region, in
    expect(clip([[2, 8, 8, 8]], [[[l]]])).toEqual([[2, 8, 5, 8]]);
  });

  test('two touching squares (a multipolygon row) and a segment along their shared side', () => {
    const rows: Poly[][] = [[[square(0, 0, 10)], [square(20, 0, 10)]]];
    expect(clip([[-5, 5, 35, 5]], rows)).toEqual([
      [0, 5, 10, 5],
      [20, 5, 30, 5],
    ]);
    // unioned rows: the shared side x = 10 is inside the union
    expect(clip([[10, -5, 10, 15]], [[[square(0, 0, 10)]], [[square(10, 0, 10)]]])).toEqual([
      [10, 0, 10, 10],
    ]);
  });

  test('empty input, polylines, degenerate parts, an empty region', () => {
    const region = prepareClipRegion(multiPolygonColumn([[[square(0, 0, 10)]]]));
    const none = clipLinesToRegion({ coords: new Float64Array(0), partOffsets: new Int32Array(1) }, region);
    expect(none.partOffsets).toEqual(Int32Array.of(0));
    expect(none.coords.length).toBe(0);
    // a three-point part is two segments; a one-point part and a zero-length segment give nothing
    const lines: LineBuffers = {
      coords: Float64Array.of(-5, 5, 5, 5, 5, 15, 3, 3, 4, 4, 4, 4),
      partOffsets: Int32Array.of(0, 3, 4, 6),
    };
    expect(pieces(clipLinesToRegion(lines, region))).toEqual([
      [0, 5, 5, 5],
      [5, 5, 5, 10],
    ]);
    const empty = prepareClipRegion(multiPolygonColumn([null]));
    expect(pieces(clipLinesToRegion(segments([[0, 0, 1, 1]]), empty))).toEqual([]);
  });
});

/** The jsts length of segment s ∩ region. */
function jstsClippedLength(s: number[], region: Geometry): number {
  const line = factory.createLineString([new Coordinate(s[0], s[1]), new Coordinate(s[2], s[3])]);
  return line.intersection(region).getLength();
}

/**
 * Checks one scenario segment by segment against jsts. Returns how many segments came back
 * whole, cut to one part, and cut to several parts.
 */
function checkAgainstJsts(
  list: number[][],
  rows: (Poly[] | null)[],
  tolerance: number,
): { whole: number; cut: number; split: number } {
  const region = prepareClipRegion(multiPolygonColumn(rows));
  const ref = jstsUnion(rows);
  const all = clipLinesToRegion(segments(list), region);
  const joined: number[][] = [];
  let fullyInside = 0;
  let cut = 0;
  let split = 0;
  for (const s of list) {
    const got = pieces(clipLinesToRegion(segments([s]), region));
    joined.push(...got);
    if (got.length > 1) split++;
    else if (got.length === 1 && got[0].some((v, k) => v !== s[k])) cut++;
    const want = jstsClippedLength(s, ref);
    const sum = got.reduce((a, p) => a + len(p), 0);
    expect(Math.abs(sum - want)).toBeLessThanOrEqual(tolerance * Math.max(1, len(s)));
    for (const p of got) {
      expect(len(p)).toBeGreaterThan(0);
      // pieces are on the segment, in its direction
      const dx = s[2] - s[0];
      const dy = s[3] - s[1];
      expect((p[2] - p[0]) * dx + (p[3] - p[1]) * dy).toBeGreaterThan(0);
      // the midpoint is in the closed region (boundary pieces: within rounding of it)
      const mid = factory.createPoint(new Coordinate((p[0] + p[2]) / 2, (p[1] + p[3]) / 2));
      expect(ref.distance(mid)).toBeLessThanOrEqual(tolerance);
    }
    // a segment inside the region and off its boundary comes back bit for bit
    const line = factory.createLineString([new Coordinate(s[0], s[1]), new Coordinate(s[2], s[3])]);
    if (ref.covers(line)) {
      fullyInside++;
      expect(got).toEqual([s]);
      expect(Object.is(got[0][0], s[0]) && Object.is(got[0][3], s[3])).toBe(true);
    }
    if (!ref.intersects(line)) expect(got).toEqual([]);
  }
  // the batch equals the segments one by one (scratch state does not leak between segments)
  expect(pieces(all)).toEqual(joined);
  expect(fullyInside).toBeGreaterThan(0);
  return { whole: fullyInside, cut, split };
}

describe('clipLinesToRegion against jsts on seeded random segments', () => {
  test('a concave star with a hole and an island in the hole', () => {
    const rows: Poly[][] = [[[star(50, 50, 45, 20, 7), circle(50, 50, 12, 20, true)]], [[square(47, 47, 6)]]];
    const list = randomSegments(new SeededRandom(1), 600, 0, 100, 40);
    const { whole, cut, split } = checkAgainstJsts(list, rows, 1e-9);
    // every path is taken: whole segments, segments cut to one part, and to several
    expect(whole).toBeGreaterThan(20);
    expect(cut).toBeGreaterThan(100);
    expect(split).toBeGreaterThan(20);
  });

  test('a multipolygon of overlapping rows, with a fine edge grid (long segments cross many buckets)', () => {
    const rows: Poly[][] = [
      [[circle(30, 30, 25, 2000)], [square(60, 60, 30)]],
      [[star(70, 30, 20, 8, 40)]],
      [[circle(40, 40, 10, 300)]], // overlaps the first circle: unioned away
    ];
    checkAgainstJsts(randomSegments(new SeededRandom(2), 300, -10, 110, 120), rows, 1e-9);
  });

  test('segments between region vertices (touching, collinear and corner cases)', () => {
    const outer = star(0, 0, 10, 4, 6);
    const hole: Ring = [
      [-1, -1],
      [-1, 1],
      [1, 1],
      [1, -1],
    ];
    const rows: Poly[][] = [[[outer, hole]]];
    const vertices = [...outer, ...hole];
    const rng = new SeededRandom(3);
    const list: number[][] = [];
    for (let i = 0; i < 300; i++) {
      const a = vertices[Math.floor(rng.next() * vertices.length)];
      const b = vertices[Math.floor(rng.next() * vertices.length)];
      if (a !== b) list.push([a[0], a[1], b[0], b[1]]);
    }
    // along sides, and along the hole's sides extended past its corners
    for (let k = 0; k < outer.length; k++) {
      const [a, b] = [outer[k], outer[(k + 1) % outer.length]];
      list.push([a[0], a[1], b[0], b[1]], [b[0], b[1], a[0], a[1]]);
    }
    list.push([-3, 1, 3, 1], [1, -3, 1, 3], [-1, -1, 1, 1]);
    checkAgainstJsts(list, rows, 1e-9);
  });

  test('a region covering everything returns the input bit for bit', () => {
    const list = randomSegments(new SeededRandom(4), 500, 0, 100, 30);
    // values with long binary expansions
    list.push([1 / 3, 2 / 3, Math.PI, Math.E]);
    const lines = segments(list);
    const out = clipLinesToRegion(
      lines,
      prepareClipRegion(multiPolygonColumn([[[square(-1e4, -1e4, 2e4)]]])),
    );
    expect(out.coords).toEqual(lines.coords);
    expect(out.partOffsets).toEqual(lines.partOffsets);
  });

  test('a disjoint region, and one inside the box of the segments but missing them, give nothing', () => {
    const list = randomSegments(new SeededRandom(5), 300, 0, 100, 10);
    expect(
      total(
        clipLinesToRegion(segments(list), prepareClipRegion(multiPolygonColumn([[[square(500, 500, 10)]]]))),
      ),
    ).toBe(0);
    // a thin sliver between two segments
    const sliver: Ring = [
      [0, 1],
      [10, 1],
      [10, 1.5],
      [0, 1.5],
    ];
    const out = clipLinesToRegion(
      segments([
        [0, 0, 10, 0.9],
        [0, 2, 10, 1.6],
        [-1, 1.25, 5, 1.25],
      ]),
      prepareClipRegion(multiPolygonColumn([[[sliver]]])),
    );
    expect(pieces(out)).toEqual([[0, 1.25, 5, 1.25]]);
  });
});
