import { GeoDataFrame, GeoSeries, sjoin, sjoinNearest } from '@geoframe/geo';
import { vectorFromArray } from 'apache-arrow';
import { beforeAll, expect, it } from 'vitest';
import { type Answer, describeWithGeoPandas, fromHex, hexWkb, reference } from './ops/reference.js';
import { mulberry32, probePoints, squareWithHole, star } from './ops/seeded-shapes.js';

const rand = mulberry32(11);
const polygonWkt = [
  squareWithHole(0, 0, 8),
  squareWithHole(8, 0, 8),
  star(rand, 6, 6, 6),
  'MULTIPOLYGON (((20 0, 24 0, 24 4, 20 4, 20 0)), ((24 4, 28 4, 28 8, 24 8, 24 4)))',
  null,
  'POLYGON EMPTY',
  star(rand, 30, 30, 3),
];
const pointWkt = [
  ...polygonWkt.flatMap((w) => (w && !w.includes('EMPTY') ? probePoints(rand, w, 6) : [])),
  null,
  'POINT EMPTY',
  'POINT (100 100)',
];

function frame(wkt: (string | null)[], prefix: string, idName: string): GeoDataFrame {
  const n = wkt.length;
  return GeoDataFrame.fromSeries(GeoSeries.fromWKT(wkt, { crs: 'EPSG:3857' }), {
    name: vectorFromArray(Array.from({ length: n }, (_, i) => `${prefix}${i}`)),
    [idName]: vectorFromArray(Float64Array.from({ length: n }, (_, i) => 1000 + i)),
  });
}
const points = frame(pointWkt, 'p', 'pid');
const polygons = frame(polygonWkt, 'g', 'gid');
const spec = (f: GeoDataFrame) => ({
  wkb: hexWkb(f.geometry),
  crs: 'EPSG:3857',
  columns: Object.fromEntries(
    f.columns.filter((c) => c !== 'geometry').map((c) => [c, [...(f.get(c) as Iterable<unknown>)]]),
  ),
});

type How = 'inner' | 'left' | 'right';
interface JoinCase {
  left: GeoDataFrame;
  right: GeoDataFrame;
  how: How;
  predicate?: string;
  nearest?: { maxDistance?: number };
}
const joins: JoinCase[] = [];
for (const how of ['inner', 'left', 'right'] as How[]) {
  for (const predicate of ['intersects', 'within', 'touches', 'covered_by'])
    joins.push({ left: points, right: polygons, how, predicate });
  joins.push({ left: polygons, right: points, how, predicate: 'contains' });
  joins.push({ left: polygons, right: polygons, how, predicate: 'overlaps' });
  joins.push({ left: points, right: polygons, how, nearest: {} });
  joins.push({ left: polygons, right: points, how, nearest: { maxDistance: 2 } });
}

let answers: Answer[];

/** Rows of a table answer as strings, grouped by the kept side's row and sorted within a group. */
function rowsOf(columns: string[], data: Record<string, unknown[]>, major: string, minor: string): string[] {
  const n = data[columns[0]].length;
  const rows = Array.from({ length: n }, (_, r) => r);
  const key = (c: string, r: number) => (data[c][r] === null ? -1 : Number(data[c][r]));
  rows.sort((a, b) => key(major, a) - key(major, b) || key(minor, a) - key(minor, b));
  return rows.map((r) => columns.map((c) => JSON.stringify(data[c][r])).join(' | '));
}

describeWithGeoPandas('sjoin and sjoinNearest against GeoPandas', () => {
  beforeAll(() => {
    answers = reference(
      joins.map((j) =>
        j.nearest
          ? {
              op: 'sjoin_nearest',
              left: spec(j.left),
              right: spec(j.right),
              how: j.how,
              max_distance: j.nearest.maxDistance ?? null,
              distance_col: 'dist',
            }
          : { op: 'sjoin', left: spec(j.left), right: spec(j.right), how: j.how, predicate: j.predicate },
      ),
    );
  });

  it.each(
    joins.map(
      (j, i) =>
        [`${j.how} ${j.predicate ?? 'nearest'} ${j.left === points ? 'points' : 'polygons'}`, i] as const,
    ),
  )('%s: same columns, rows, index and values', (_, i) => {
    const j = joins[i];
    const ours = j.nearest
      ? j.left.sjoinNearest(j.right, { how: j.how, ...j.nearest, distanceCol: 'dist' })
      : j.left.sjoin(j.right, { how: j.how, predicate: j.predicate as 'intersects' });
    const theirs = answers[i];
    expect(theirs.error).toBeUndefined();
    expect(ours.columns).toEqual(theirs.columns);
    // the kept side's id column and the other side's index column identify each row
    const leftId = j.left === points ? 'pid' : 'gid';
    const rightId = j.right === points ? 'pid' : 'gid';
    const [lid, rid] = leftId === rightId ? [`${leftId}_left`, `${rightId}_right`] : [leftId, rightId];
    const [major, minor] = j.how === 'right' ? [rid, 'index_left'] : [lid, 'index_right'];
    const data: Record<string, unknown[]> = {};
    for (const c of ours.columns) {
      const col = ours.get(c);
      data[c] = col instanceof GeoSeries ? hexWkb(col) : [...(col as Iterable<unknown>)];
    }
    // geometry: compare as WKT (shapely's WKB and ours may differ in flavour, not in coordinates)
    const geometryName = ours.geometryName;
    data[geometryName] = (ours.get(geometryName) as GeoSeries).toWKT();
    const theirData = { ...theirs.data, [geometryName]: fromHex(theirs.data[geometryName]).toWKT() };
    expect(rowsOf(ours.columns, data, major, minor)).toEqual(rowsOf(theirs.columns, theirData, major, minor));
    // and our rows are already in that order
    expect(rowsOf(ours.columns, data, major, minor).join('\n')).toBe(
      Array.from({ length: ours.length }, (_, r) =>
        ours.columns.map((c) => JSON.stringify(data[c][r])).join(' | '),
      ).join('\n'),
    );
    expect(ours.crs).toBe('EPSG:3857');
  });

  it('sindex query and nearest pairs equal GeoPandas sindex', () => {
    const tree = polygons.geometry;
    const query = points.geometry;
    const tasks: object[] = [];
    const ours: { input: Int32Array; tree: Int32Array; distance?: Float64Array }[] = [];
    for (const predicate of [undefined, 'intersects', 'within', 'touches', 'covered_by']) {
      tasks.push({
        op: 'sindex_query',
        tree: hexWkb(tree),
        query: hexWkb(query),
        predicate: predicate ?? null,
      });
      ours.push(tree.sindex.query(query, predicate as 'within' | undefined));
    }
    tasks.push({ op: 'sindex_nearest', tree: hexWkb(tree), query: hexWkb(query), max_distance: null });
    ours.push(tree.sindex.nearest(query));
    tasks.push({ op: 'sindex_nearest', tree: hexWkb(query), query: hexWkb(tree), max_distance: 1.5 });
    ours.push(query.sindex.nearest(tree, { maxDistance: 1.5 }));
    const theirs = reference(tasks);
    ours.forEach((o, t) => {
      const pairs = (a: ArrayLike<number>, b: ArrayLike<number>) =>
        Array.from(a, (x, k) => [x, b[k]]).sort((p, q) => p[0] - q[0] || p[1] - q[1]);
      expect(pairs(o.input, o.tree), `task ${t}`).toEqual(pairs(theirs[t].pairs[0], theirs[t].pairs[1]));
      if (o.distance) {
        const byPair = new Map(
          theirs[t].pairs[0].map((x: number, k: number) => [
            `${x},${theirs[t].pairs[1][k]}`,
            theirs[t].distance[k],
          ]),
        );
        o.input.forEach((x, k) => {
          expect(o.distance![k]).toBeCloseTo(byPair.get(`${x},${o.tree[k]}`) as number, 12);
        });
      }
    });
  });
});

/** Point columns for the point–point nearest path: seeded, with a lattice (ties), duplicates and misses. */
function pointColumns(seed: number): { tree: GeoSeries; query: GeoSeries } {
  const r = mulberry32(seed);
  const tree: (string | null)[] = [];
  for (let i = 0; i < 60; i++) tree.push(`POINT (${(r() * 40).toFixed(3)} ${(r() * 20).toFixed(3)})`);
  for (let i = 0; i < 5; i++) for (let j = 0; j < 5; j++) tree.push(`POINT (${50 + 2 * i} ${2 * j})`);
  tree.push(tree[3], null, 'POINT EMPTY', tree[70]);
  const query: (string | null)[] = [];
  for (let i = 0; i < 80; i++)
    query.push(`POINT (${(r() * 70 - 5).toFixed(2)} ${(r() * 30 - 5).toFixed(2)})`);
  // lattice cell centres and edge midpoints: four and two nearest rows at exactly one distance
  for (let i = 0; i < 4; i++)
    query.push(`POINT (${51 + 2 * i} ${1 + 2 * i})`, `POINT (${51 + 2 * i} ${2 * i})`);
  query.push('POINT (1000 -1000)', 'POINT (-1e6 5)', null, 'POINT EMPTY');
  return { tree: GeoSeries.fromWKT(tree), query: GeoSeries.fromWKT(query) };
}

describeWithGeoPandas('nearest between two point columns', () => {
  it('sindex.nearest equals GeoPandas, ties and maxDistance included', () => {
    const tasks: object[] = [];
    const ours: { input: Int32Array; tree: Int32Array; distance: Float64Array }[] = [];
    for (const seed of [3, 17]) {
      const { tree, query } = pointColumns(seed);
      for (const maxDistance of [undefined, 0.8, 3]) {
        tasks.push({
          op: 'sindex_nearest',
          tree: hexWkb(tree),
          query: hexWkb(query),
          max_distance: maxDistance ?? null,
        });
        ours.push(tree.sindex.nearest(query, { maxDistance }));
      }
    }
    const theirs = reference(tasks);
    // GeoPandas lists tied rows in its tree's order, we by row: compare as sorted triples
    const triples = (a: ArrayLike<number>, b: ArrayLike<number>, d: ArrayLike<number>) =>
      Array.from(a, (x, k) => [x, b[k], d[k]]).sort((p, q) => p[0] - q[0] || p[1] - q[1]);
    ours.forEach((o, t) => {
      expect(o.input.length, `task ${t}`).toBeGreaterThan(0);
      // the same formula as GEOS: distances equal to the last bit
      expect(triples(o.input, o.tree, o.distance), `task ${t}`).toEqual(
        triples(theirs[t].pairs[0], theirs[t].pairs[1], theirs[t].distance),
      );
    });
  });
});

it('nearest between two point columns: returnAll false keeps the lowest tied row (brute force)', () => {
  const { tree, query } = pointColumns(29);
  const all = tree.sindex.nearest(query);
  const one = tree.sindex.nearest(query, { returnAll: false });
  const first = new Map<number, [number, number]>();
  all.input.forEach((i, k) => {
    if (!first.has(i)) first.set(i, [all.tree[k], all.distance[k]]);
  });
  expect([...one.input]).toEqual([...first.keys()]);
  expect([...one.tree]).toEqual([...first.values()].map((v) => v[0]));
  expect(all.input.length).toBeGreaterThan(one.input.length); // the lattice's ties are there
  // brute force over every pair for the minimum distances
  const xy = (g: GeoSeries) =>
    g.toWKT().map((w) => (w === null || w.includes('EMPTY') ? null : w.match(/[-\d.e]+/g)!.map(Number)));
  const [t, q] = [xy(tree), xy(query)];
  one.input.forEach((i, k) => {
    const [qx, qy] = q[i] as number[];
    let best = Infinity;
    for (const p of t) if (p !== null) best = Math.min(best, Math.sqrt((qx - p[0]) ** 2 + (qy - p[1]) ** 2));
    expect(one.distance[k], `query ${i}`).toBe(best);
  });
});

it('the functions equal the methods; bad options and mismatched CRS are errors', () => {
  expect(sjoin(points, polygons).toArrow().numRows).toBe(points.sjoin(polygons).length);
  expect(sjoinNearest(points, polygons).length).toBe(points.sjoinNearest(polygons).length);
  expect(() => points.sjoin(polygons, { how: 'outer' as 'inner' })).toThrow(/how must be/);
  expect(() => points.sjoin(polygons, { predicate: 'near' as 'within' })).toThrow(/unknown predicate "near"/);
  const lonlat = polygons.withGeometry(polygons.geometry.setCrs('EPSG:4326', { allowOverride: true }));
  expect(() => points.sjoin(lonlat)).toThrow(/different CRS \(EPSG:3857 and EPSG:4326\)/);
  expect(() => points.sjoinNearest(polygons, { maxDistance: -1 })).toThrow(/maxDistance/);
});

it('Voronoi identity: points joined to the cell containing them = nearest-site join', async () => {
  for (const [seed, lattice] of [
    [21, false],
    [22, true],
  ] as const) {
    const r = mulberry32(seed);
    // lattice sites: cell edges and vertices fall on half-integers, exact in f64; customers on a
    // quarter lattice, so many are exactly equidistant from two or four sites
    const n = lattice ? 100 : 300;
    const sx = Array.from({ length: n }, (_, i) => (lattice ? i % 10 : 100 * r()));
    const sy = Array.from({ length: n }, (_, i) => (lattice ? Math.floor(i / 10) : 100 * r()));
    const sites = GeoDataFrame.fromSeries(GeoSeries.fromXY(sx, sy, { crs: 'EPSG:3857' }), {
      site: vectorFromArray(Int32Array.from({ length: n }, (_, i) => i)),
    });
    const cells = await sites.voronoiPolygons({ ordered: true });
    const m = 1500;
    const cx = Array.from({ length: m }, () => (lattice ? Math.floor(r() * 37) / 4 : 100 * r()));
    const cy = Array.from({ length: m }, () => (lattice ? Math.floor(r() * 37) / 4 : 100 * r()));
    const customers = GeoDataFrame.fromSeries(GeoSeries.fromXY(cx, cy, { crs: 'EPSG:3857' }), {
      customer: vectorFromArray(Int32Array.from({ length: m }, (_, i) => i)),
    });
    const setsOf = (joined: GeoDataFrame) => {
      const sets = Array.from({ length: m }, () => [] as number[]);
      const c = [...(joined.get('customer') as Iterable<number>)];
      const s = [...(joined.get('site') as Iterable<number | null>)];
      c.forEach((k, row) => {
        if (s[row] !== null) sets[k].push(s[row]!);
      });
      return sets.map((x) => x.sort((a, b) => a - b).join(','));
    };
    const within = setsOf(customers.sjoin(cells, { predicate: 'within' }));
    const touching = setsOf(customers.sjoin(cells, { predicate: 'intersects' }));
    const nearest = setsOf(customers.sjoinNearest(sites));
    let equidistant = 0;
    for (let k = 0; k < m; k++) {
      if (nearest[k].includes(',')) {
        equidistant++;
        expect(within[k], `customer ${k} on a cell boundary`).toBe('');
        expect(touching[k], `customer ${k}: the cells meeting there`).toBe(nearest[k]);
      } else {
        expect(within[k], `customer ${k}`).toBe(nearest[k]);
      }
    }
    if (lattice) expect(equidistant).toBeGreaterThan(100);
    else expect(equidistant).toBe(0);
  }
});
