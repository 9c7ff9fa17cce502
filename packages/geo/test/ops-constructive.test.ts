import { GeoDataFrame, GeoSeries } from '@geoframe/geo';
import { vectorFromArray } from 'apache-arrow';
import { beforeAll, expect, it } from 'vitest';
import { type Answer, describeWithGeoPandas, fromHex, hexWkb, reference } from './ops/reference.js';
import { mulberry32, squareWithHole, star } from './ops/seeded-shapes.js';

const rand = mulberry32(31);
const wkt = [
  squareWithHole(0, 0, 8),
  star(rand, 20, 20, 10, 9),
  star(rand, -15, 5, 6, 6),
  'MULTIPOLYGON (((0 0, 4 0, 4 4, 0 4, 0 0)), ((4 4, 8 4, 8 8, 4 8, 4 4)), ((30 30, 31 30, 31 31, 30 30)))',
  'LINESTRING (0 0, 3 1, 6 0, 9 1, 12 0, 12 5)',
  'MULTILINESTRING ((0 10, 5 10), (0 12, 5 17))',
  'POINT (3 3)',
  'MULTIPOINT ((0 0), (1 5), (5 5), (2 2))',
  'LINESTRING (0 0, 0 5)',
  null,
  'POLYGON EMPTY',
  'POLYGON ((0 0, 2 2, 2 0, 0 2, 0 0))', // a bow-tie: invalid
];
const valid = GeoSeries.fromWKT(wkt.slice(0, -1));
const all = GeoSeries.fromWKT(wkt);
const invalid = GeoSeries.fromWKT([
  'POLYGON ((0 0, 2 2, 2 0, 0 2, 0 0))', // bow-tie
  'POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0), (5 5, 6 5, 6 6, 5 6, 5 5))', // hole outside its shell
  'POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (1 1, 5 1, 5 5, 1 5, 1 1), (3 3, 7 3, 7 7, 3 7, 3 3))', // holes overlapping
  'POLYGON ((0 0, 4 0, 4 4, 2 4, 3 2, 1 2, 2 4, 0 4, 0 0))', // a ring touching itself (an inverted hole)
  'MULTIPOLYGON (((0 0, 4 0, 4 4, 0 4, 0 0)), ((2 2, 6 2, 6 6, 2 6, 2 2)))', // overlapping parts
  'POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 8 2, 8 8, 2 8, 2 2), (3 3, 7 3, 7 7, 3 7, 3 3))', // a hole in a hole
  'POLYGON ((0 0, 3 0, 3 3, 0 3, 0 0))', // valid: unchanged
  'LINESTRING (0 0, 1 1)',
  null,
  'POLYGON EMPTY',
]);
const polygonal = GeoSeries.fromWKT([...wkt.slice(0, 4), null, 'POLYGON EMPTY']);

interface UnaryCase {
  name: string;
  args?: unknown[];
  ours: () => GeoSeries;
  input?: GeoSeries;
  /** symmetric-difference area allowed, relative to the area (buffers are polygonal approximations) */
  tolerance: number;
}
const unary: UnaryCase[] = [
  { name: 'buffer', args: [1.5], ours: () => valid.buffer(1.5), tolerance: 1e-9 },
  { name: 'buffer', args: [-0.5], ours: () => valid.buffer(-0.5), tolerance: 1e-9 },
  { name: 'simplify', args: [0.8], ours: () => valid.simplify(0.8), tolerance: 1e-12 },
  { name: 'convex_hull', ours: () => valid.convexHull(), tolerance: 1e-12 },
  { name: 'envelope', ours: () => valid.envelope(), tolerance: 1e-12 },
  { name: 'union_all', ours: () => polygonal.unionAll(), input: polygonal, tolerance: 1e-12 },
  { name: 'make_valid', ours: () => invalid.makeValid(), input: invalid, tolerance: 1e-12 },
];

let answers: Answer[];
let compared: Answer[];

describeWithGeoPandas(
  'constructive operations against shapely (symmetric difference and Hausdorff distance)',
  () => {
    beforeAll(() => {
      answers = reference([
        ...unary.map((u) => ({
          op: 'unary',
          name: u.name,
          args: u.args ?? [],
          wkb: hexWkb(u.input ?? valid),
        })),
        { op: 'unary', name: 'is_valid', wkb: hexWkb(all) },
      ]);
      compared = reference(
        unary.map((u, i) => ({ op: 'compare', ours: hexWkb(u.ours()), theirs: answers[i].wkb })),
      );
    });

    it.each(unary.map((u, i) => [`${u.name}(${u.args ?? ''})`, i] as const))(
      '%s: same rows, same shapes',
      (_, i) => {
        const ours = unary[i].ours();
        const theirs = fromHex(answers[i].wkb);
        expect(ours.length).toBe(theirs.length);
        expect(ours.isNull).toEqual(theirs.isNull);
        compared[i].rows.forEach((row: Answer, r: number) => {
          if (row.null) return;
          expect(row.empty[0], `row ${r} empty`).toBe(row.empty[1]);
          if (row.empty[1]) return;
          // GEOS returns the single type where a Multi has one part; so do we
          expect(row.types[0], `row ${r}`).toBe(row.types[1]);
          expect(row.symdiff, `row ${r}`).toBeLessThanOrEqual(unary[i].tolerance * Math.max(1, row.area));
          expect(row.hausdorff, `row ${r}`).toBeLessThan(1e-6);
        });
      },
    );

    it('isValid as shapely (nulls false, the bow-tie invalid)', () => {
      const theirs: (boolean | null)[] = answers[unary.length].values;
      expect([...all.isValid].map(Boolean)).toEqual(theirs.map(Boolean));
      expect(all.isValid.at(-1)).toBe(0);
    });
  },
);

// frame-level operations
const polygons = GeoDataFrame.fromSeries(
  GeoSeries.fromWKT([
    squareWithHole(0, 0, 8),
    squareWithHole(8, 0, 8),
    'POLYGON ((4 4, 12 4, 12 12, 4 12, 4 4))',
    star(rand, 20, 6, 6),
    'MULTIPOLYGON (((30 0, 34 0, 34 4, 30 4, 30 0)), ((40 0, 44 0, 44 4, 40 4, 40 0)))',
    null,
  ]),
  {
    id: vectorFromArray(Float64Array.from([0, 1, 2, 3, 4, 5])),
    kind: vectorFromArray(['a', 'b', 'a', null, 'b', 'c']),
    w: vectorFromArray(Float64Array.from([1, 2, 4, 8, 16, 32])),
  },
);
const others = GeoDataFrame.fromSeries(
  GeoSeries.fromWKT([
    'POLYGON ((2 -2, 18 -2, 18 6, 2 6, 2 -2))',
    star(rand, 22, 8, 5),
    'POLYGON ((31 1, 41 1, 41 3, 31 3, 31 1))',
    'POLYGON ((100 100, 101 100, 101 101, 100 100))',
  ]),
  {
    id: vectorFromArray(Float64Array.from([10, 11, 12, 13])),
    v: vectorFromArray(Float64Array.from([1, 2, 3, 4])),
  },
);
const mask = GeoSeries.fromWKT([
  'POLYGON ((1 1, 25 1, 25 9, 1 9, 1 1))',
  'POLYGON ((29 -1, 31 -1, 31 5, 29 5, 29 -1))',
]);
const framePoints = GeoDataFrame.fromSeries(GeoSeries.fromXY([0, 1, 5, 25, 30, 50], [0, 1, 5, 9, 2, 50]), {
  id: vectorFromArray(Float64Array.from([0, 1, 2, 3, 4, 5])),
});

const explodeInput = GeoSeries.fromWKT([...wkt.slice(0, -1), 'MULTIPOLYGON EMPTY']);
const exploding = GeoDataFrame.fromSeries(explodeInput, {
  id: vectorFromArray(Float64Array.from(explodeInput.isNull, (_, i) => i)),
});

interface FrameCase {
  name: string;
  ours: () => GeoDataFrame;
  task: object;
  key: string[];
}
const spec = (f: GeoDataFrame) => ({
  wkb: hexWkb(f.geometry),
  columns: Object.fromEntries(
    f.columns.filter((c) => c !== 'geometry').map((c) => [c, [...(f.get(c) as Iterable<unknown>)]]),
  ),
});
const frames: FrameCase[] = [
  ...(['intersection', 'union', 'identity', 'symmetric_difference', 'difference'] as const).map((how) => ({
    name: `overlay ${how}`,
    ours: () => polygons.overlay(others, { how }),
    task: { op: 'frame', name: 'overlay', frame: spec(polygons), other: spec(others), kwargs: { how } },
    key: how === 'difference' ? ['id'] : ['id_1', 'id_2'],
  })),
  {
    name: 'clip polygons',
    ours: () => polygons.clip(mask),
    task: {
      op: 'frame',
      name: 'clip',
      frame: spec(polygons),
      mask: hexWkb(mask),
      kwargs: { keep_geom_type: true },
    },
    key: ['id'],
  },
  {
    name: 'clip points',
    ours: () => framePoints.clip(mask),
    task: { op: 'frame', name: 'clip', frame: spec(framePoints), mask: hexWkb(mask) },
    key: ['id'],
  },
  {
    name: 'dissolve first',
    ours: () => polygons.dissolve({ by: 'kind' }),
    task: { op: 'frame', name: 'dissolve', frame: spec(polygons), kwargs: { by: 'kind' } },
    key: ['kind'],
  },
  {
    name: 'dissolve sum',
    ours: () => polygons.dissolve({ by: 'kind', aggfunc: 'sum' }),
    task: { op: 'frame', name: 'dissolve', frame: spec(polygons), kwargs: { by: 'kind', aggfunc: 'sum' } },
    key: ['kind'],
  },
  {
    name: 'explode',
    ours: () => exploding.explode(),
    task: { op: 'frame', name: 'explode', frame: spec(exploding), kwargs: { index_parts: false } },
    key: ['id'],
  },
];
let frameAnswers: Answer[];
let frameCompared: Answer[];

describeWithGeoPandas('overlay, clip, dissolve and explode against GeoPandas', () => {
  beforeAll(() => {
    frameAnswers = reference(frames.map((f) => f.task));
    frameCompared = reference(
      frames.map((f, i) => ({
        op: 'compare',
        ours: hexWkb(f.ours().geometry),
        theirs: sortedLike(f, i).geometry,
      })),
    );
  });

  /** GeoPandas' rows in our row order (matched on the key columns; their order within equal keys kept). */
  function sortedLike(f: FrameCase, i: number): { geometry: (string | null)[]; keys: string[] } {
    const theirs = frameAnswers[i];
    expect(theirs.error, f.name).toBeUndefined();
    const n = theirs.data.geometry.length;
    const keyOf = (get: (c: string) => unknown) => f.key.map((c) => JSON.stringify(get(c) ?? null)).join('|');
    const pool = new Map<string, number[]>();
    for (let r = 0; r < n; r++) {
      const k = keyOf((c) => theirs.data[c][r]);
      pool.set(k, [...(pool.get(k) ?? []), r]);
    }
    const ours = f.ours();
    const keys: string[] = [];
    const geometry: (string | null)[] = [];
    for (let r = 0; r < ours.length; r++) {
      const k = keyOf((c) => {
        const v = (ours.get(c) as { get(i: number): unknown }).get(r);
        return typeof v === 'bigint' ? Number(v) : v;
      });
      keys.push(k);
      const match = pool.get(k)?.shift();
      geometry.push(match === undefined ? null : theirs.data.geometry[match]);
    }
    return { geometry, keys };
  }

  it.each(frames.map((f, i) => [f.name, i] as const))('%s: same columns, rows and geometries', (_, i) => {
    const f = frames[i];
    const ours = f.ours();
    const theirs = frameAnswers[i];
    expect(ours.columns).toEqual(theirs.columns.filter((c: string) => c !== 'index'));
    expect(ours.length).toBe(theirs.data.geometry.length);
    const { geometry } = sortedLike(f, i);
    expect(
      geometry.filter((g) => g === null).length,
      'every row of ours has a GeoPandas row with its key',
    ).toBe(ours.geometry.isNull.reduce((s, v) => s + v, 0));
    frameCompared[i].rows.forEach((row: Answer, r: number) => {
      if (row.null) return;
      expect(row.symdiff, `${f.name} row ${r}`).toBeLessThanOrEqual(1e-9 * Math.max(1, row.area));
      expect(row.hausdorff ?? 0, `${f.name} row ${r}`).toBeLessThan(1e-9);
    });
    // attribute columns equal, row by row in our order
    for (const c of ours.columns) {
      if (c === ours.geometryName) continue;
      const mine = [...(ours.get(c) as Iterable<unknown>)].map((v) =>
        typeof v === 'bigint' ? Number(v) : v,
      );
      const order = sortedLike(f, i);
      expect(order.keys.length).toBe(mine.length);
      const theirsByKey = new Map<string, unknown[]>();
      for (let r = 0; r < theirs.data[c].length; r++) {
        const k = f.key.map((kc) => JSON.stringify(theirs.data[kc][r] ?? null)).join('|');
        theirsByKey.set(k, [...(theirsByKey.get(k) ?? []), theirs.data[c][r]]);
      }
      const expected = order.keys.map((k) => theirsByKey.get(k)!.shift() ?? null);
      expect(mine, `${f.name} column ${c}`).toEqual(expected);
    }
  });
});

it('row-wise set operations: broadcast, nulls, errors', () => {
  const squares = GeoSeries.fromWKT([
    'POLYGON ((0 0, 2 0, 2 2, 0 2, 0 0))',
    null,
    'POLYGON ((5 5, 6 5, 6 6, 5 6, 5 5))',
  ]);
  const box = GeoSeries.fromWKT(['POLYGON ((1 1, 3 1, 3 3, 1 3, 1 1))']);
  expect([...squares.intersection(box).area()]).toEqual([1, Number.NaN, 0]);
  expect([...squares.union(box).area()]).toEqual([7, Number.NaN, 5]);
  expect([...squares.difference(box).area()]).toEqual([3, Number.NaN, 1]);
  expect([...squares.symmetricDifference(box).area()]).toEqual([6, Number.NaN, 5]);
  expect(() => squares.intersection(GeoSeries.fromWKT(['POINT (0 0)', 'POINT (1 1)']))).toThrow(
    /2 rows, this one 3/,
  );
  // a polygon meeting another along an edge and over an area: a GeometryCollection no column holds
  const touching = GeoSeries.fromWKT(['POLYGON ((0 0, 2 0, 2 2, 0 2, 0 0))']);
  const lshape = GeoSeries.fromWKT(['POLYGON ((1 1, 3 1, 3 3, -1 3, -1 2, 1 2, 1 1))']);
  expect(() => touching.intersection(lshape)).toThrow(/row 0: the result is a GeometryCollection/);
  expect(() => valid.unionAll()).toThrow(/GeometryCollection/); // areas, lines and points together
});
