import { GeoSeries } from '@geoframe/geo';
import { beforeAll, expect, it } from 'vitest';
import { type Answer, describeWithGeoPandas, hexWkb, reference } from './ops/reference.js';
import { mulberry32, probePoints, squareWithHole, star } from './ops/seeded-shapes.js';

const NAMES = [
  'intersects',
  'within',
  'contains',
  'touches',
  'covers',
  'coveredBy',
  'disjoint',
  'overlaps',
  'crosses',
] as const;
const snake = (n: string) => (n === 'coveredBy' ? 'covered_by' : n);

/** Row-wise pairs: every probe point against its polygon, both ways, plus line/polygon/multi pairs. */
function pairs(seed: number, offset: number): { left: string[]; right: string[] } {
  const rand = mulberry32(seed);
  const left: string[] = [];
  const right: string[] = [];
  const shift = (w: string) => w.replace(/-?\d+(\.\d+)?(e[-+]?\d+)?/gi, (m) => String(Number(m) + offset));
  const polys = [
    squareWithHole(0, 0, 8),
    star(rand, 20, 20, 10),
    star(rand, -15, 5, 6, 5),
    'MULTIPOLYGON (((0 0, 4 0, 4 4, 0 4, 0 0)), ((4 4, 8 4, 8 8, 4 8, 4 4)))',
  ].map(shift);
  for (const poly of polys) {
    for (const point of probePoints(rand, poly, 12)) {
      left.push(point, poly);
      right.push(poly, point);
    }
  }
  // points against points, lines and multipolygons against polygons (the jsts path)
  const o = (x: number) => x + offset;
  const extra: [string, string][] = [
    [`POINT (${o(1)} ${o(1)})`, `POINT (${o(1)} ${o(1)})`],
    [`POINT (${o(1)} ${o(1)})`, `POINT (${o(1)} ${o(2)})`],
    [`LINESTRING (${o(-1)} ${o(1)}, ${o(9)} ${o(1)})`, polys[0]],
    [`LINESTRING (${o(0)} ${o(0)}, ${o(8)} ${o(0)})`, polys[0]],
    [`LINESTRING (${o(1)} ${o(1)}, ${o(1.5)} ${o(1.5)})`, polys[0]],
    [
      `POLYGON ((${o(8)} ${o(0)}, ${o(10)} ${o(0)}, ${o(10)} ${o(8)}, ${o(8)} ${o(8)}, ${o(8)} ${o(0)}))`,
      polys[0],
    ],
    [
      `POLYGON ((${o(6)} ${o(6)}, ${o(10)} ${o(6)}, ${o(10)} ${o(10)}, ${o(6)} ${o(10)}, ${o(6)} ${o(6)}))`,
      polys[0],
    ],
    [
      `POLYGON ((${o(3)} ${o(3)}, ${o(5)} ${o(3)}, ${o(5)} ${o(5)}, ${o(3)} ${o(5)}, ${o(3)} ${o(3)}))`,
      polys[0],
    ],
    [`MULTIPOINT ((${o(0)} ${o(0)}), (${o(20)} ${o(20)}))`, polys[0]],
    [polys[3], polys[0]],
    [`POINT (${o(4)} ${o(4)})`, polys[3]],
    ['POINT EMPTY', polys[0]],
    [polys[0], 'POLYGON EMPTY'],
  ];
  for (const [a, b] of extra) {
    left.push(a);
    right.push(b);
  }
  return { left, right };
}

const cases = [
  { name: 'near the origin', ...pairs(1, 0) },
  { name: 'at a 1e7 offset', ...pairs(2, 1e7) },
  { name: 'at a 2^40 offset', ...pairs(3, 2 ** 40) },
].map((c) => ({
  ...c,
  left: GeoSeries.fromWKT([...c.left, null, 'POINT (0 0)']),
  right: GeoSeries.fromWKT([...c.right, 'POINT (0 0)', null]),
}));
let answers: Answer[];

describeWithGeoPandas('predicates and distance against shapely, row by row', () => {
  beforeAll(() => {
    answers = reference(
      cases.map((c) => ({
        op: 'predicates',
        left: hexWkb(c.left),
        right: hexWkb(c.right),
        names: NAMES.map(snake),
      })),
    );
  });

  it.each(cases.map((c, i) => [c.name, i] as const))(
    '%s: every predicate equal, exact on the boundary',
    (_, i) => {
      const { left, right } = cases[i];
      for (const name of NAMES) {
        const ours = [...left[name](right)].map(Boolean);
        const theirs: boolean[] = answers[i][snake(name)];
        const wrong = ours.flatMap((v, r) =>
          v === theirs[r] ? [] : [`${r}: ${left.toWKT()[r]} ${name} ${right.toWKT()[r]}`],
        );
        expect(wrong, name).toEqual([]);
      }
      // the cases do test the boundary: some points are on edges or vertices
      expect(answers[i].touches.filter(Boolean).length).toBeGreaterThan(20);
    },
  );

  it.each(cases.map((c, i) => [c.name, i] as const))('%s: distance as shapely', (_, i) => {
    const { left, right } = cases[i];
    const ours = left.distance(right);
    const theirs: (number | null)[] = answers[i].distance;
    ours.forEach((d, r) => {
      if (theirs[r] === null) expect(d, `row ${r}`).toBeNaN();
      else expect(Math.abs(d - theirs[r]!), `row ${r}`).toBeLessThanOrEqual(1e-12 * Math.max(1, theirs[r]!));
    });
  });
});

it('one geometry is broadcast; mismatched lengths and CRS are errors', () => {
  const points = GeoSeries.fromXY([1, 5, 9], [1, 5, 9], { crs: 'EPSG:3857' });
  const box = GeoSeries.fromWKT(['POLYGON ((0 0, 5 0, 5 5, 0 5, 0 0))'], { crs: 'EPSG:3857' });
  expect([...points.within(box)]).toEqual([1, 0, 0]);
  expect([...points.coveredBy(box)]).toEqual([1, 1, 0]);
  expect([...points.touches(box)]).toEqual([0, 1, 0]);
  expect(() => points.within(GeoSeries.fromXY([1, 2], [1, 2]))).toThrow(/2 rows, this one 3/);
  expect(() => points.within(box.setCrs('EPSG:4326', { allowOverride: true }))).toThrow(
    /different CRS \(EPSG:3857 and EPSG:4326\)/,
  );
});
