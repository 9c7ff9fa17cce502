// The GeoPandas essentials of issue 22 on the CPU (no GPU is used): toCrs of the coordinate
// buffer against proj4 called per point (the way most code calls it), the sindex build, sjoin of
// points into Voronoi cells (what a service-area pipeline does), sjoinNearest to the sites, a
// vectorised predicate, and the exact point-in-polygon kernel against jsts' relate on the same
// pairs. Medians of N runs; every case checks its answer once (the Voronoi identity: the
// within-join equals the nearest join for points not equidistant).
//
// Bundle with esbuild and run with Node, e.g. `pack.sh bench/gpu/essentials.ts`, then
//   node .gpu/bundle/essentials.mjs [--small] [--runs N] [--warmup N]
// Sizes: toCrs 1e6 and 1e7 points, sjoin 1e6 points into 1e4 cells (`--small`: 1e4 and 1e2).
// GeoPandas' side of the same cases (for the ratios of issue 22): bench/gpu/essentials_geopandas.py.
import RelateOp from 'jsts/org/locationtech/jts/operation/relate/RelateOp.js';
import proj4 from '../../packages/geo/node_modules/proj4/lib/index.js';
import { GeoDataFrame, GeoSeries } from '../../packages/geo/src/index.js';
import { JstsRows, testPair } from '../../packages/geo/src/ops/predicates.js';
import { generatePoints } from '../../packages/testing/src/index.js';
import { markdownTable, measure, parseBenchArgs, wallMs } from './bench-harness.js';

const args = parseBenchArgs();
const rows: (string | number)[][] = [];
const record = (what: string, n: number, ms: number, peer: string, peerMs: number) =>
  rows.push([what, n, ms, peer, peerMs, Number.isNaN(peerMs) ? Number.NaN : peerMs / ms]);

function lonLat(n: number): GeoSeries {
  const xy = generatePoints('uniform', n, 7); // [0, 1000)²
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = 12 + (6 * xy[2 * i]) / 1000; // UTM zone 33
    y[i] = 45 + (10 * xy[2 * i + 1]) / 1000;
  }
  return GeoSeries.fromXY(x, y, { crs: 'EPSG:4326' });
}

for (const n of args.small ? [1e4] : [1e6, 1e7]) {
  const points = lonLat(n);
  for (const target of ['EPSG:32633', 'EPSG:3857']) {
    const ours = await measure(() => wallMs(() => points.toCrs(target)), args);
    const converter = proj4(
      'EPSG:4326',
      target === 'EPSG:3857' ? 'EPSG:3857' : '+proj=utm +zone=33 +datum=WGS84 +units=m +no_defs',
    );
    const c = points.array.coords;
    const peer = await measure(
      () =>
        wallMs(() => {
          const out = new Float64Array(c.length);
          for (let k = 0; k < c.length; k += 2) {
            const p = converter.forward([c[k], c[k + 1]]);
            out[k] = p[0];
            out[k + 1] = p[1];
          }
        }),
      args,
    );
    record(`toCrs → ${target}`, n, ours.median, 'proj4 forward([x, y]) per point', peer.median);
  }
}

const nPoints = args.small ? 1e4 : 1e6;
const nSites = args.small ? 1e2 : 1e4;
const sxy = generatePoints('uniform', nSites, 3);
const sites = GeoDataFrame.fromSeries(
  GeoSeries.fromXY(
    Float64Array.from({ length: nSites }, (_, i) => sxy[2 * i]),
    Float64Array.from({ length: nSites }, (_, i) => sxy[2 * i + 1]),
    { crs: 'EPSG:3857' },
  ),
);
const cells = await sites.voronoiPolygons({
  ordered: true,
  clipTo: GeoSeries.fromWKT(['POLYGON ((0 0, 1000 0, 1000 1000, 0 1000, 0 0))'], { crs: 'EPSG:3857' }),
});
const pxy = generatePoints('uniform', nPoints, 5);
const customers = GeoDataFrame.fromSeries(
  GeoSeries.fromXY(
    Float64Array.from({ length: nPoints }, (_, i) => pxy[2 * i]),
    Float64Array.from({ length: nPoints }, (_, i) => pxy[2 * i + 1]),
    { crs: 'EPSG:3857' },
  ),
);

// the answer, checked once: every point in exactly the cell of its nearest site
{
  const within = [
    ...(customers.sjoin(cells, { predicate: 'within' }).get('index_right') as Iterable<number>),
  ];
  const nearest = [...(customers.sjoinNearest(sites).get('index_right') as Iterable<number>)];
  if (within.length !== nPoints || nearest.length !== nPoints || within.some((v, i) => v !== nearest[i])) {
    throw new Error(
      `the Voronoi identity fails: ${within.length} within rows, ${nearest.length} nearest rows`,
    );
  }
}

const build = await measure(() => wallMs(() => new GeoSeries(cells.geometry.array).sindex.size), args);
record('sindex build (cells)', nSites, build.median, '', Number.NaN);
const sj = await measure(() => wallMs(() => customers.sjoin(cells, { predicate: 'within' })), args);
record('sjoin within (points into cells)', nPoints, sj.median, '', Number.NaN);
const sjn = await measure(() => wallMs(() => customers.sjoinNearest(sites)), args);
record('sjoinNearest (points to sites)', nPoints, sjn.median, '', Number.NaN);
const cell = cells.geometry.take([0]);
const pred = await measure(() => wallMs(() => customers.geometry.within(cell)), args);
record('within one polygon (broadcast)', nPoints, pred.median, '', Number.NaN);

// the exact kernel against jsts' relate on the same candidate pairs (a sample of them)
const pairs = cells.geometry.sindex.query(customers.geometry.slice(0, nPoints / 10));
const a = new JstsRows(customers.geometry.array);
const b = new JstsRows(cells.geometry.array);
/** Counts the pairs where `within` holds by `test` (the count keeps the work from being dropped). */
function countWithin(test: (i: number, j: number) => boolean): number {
  let hits = 0;
  for (let k = 0; k < pairs.input.length; k++) if (test(pairs.input[k], pairs.tree[k])) hits++;
  return hits;
}
const kernel = await measure(() => wallMs(() => countWithin((i, j) => testPair('within', a, i, b, j))), args);
const relateMs = await measure(
  () => wallMs(() => countWithin((i, j) => RelateOp.relate(a.get(i), b.get(j)).isWithin())),
  args,
);
record(
  'within per candidate pair',
  pairs.input.length,
  kernel.median,
  'jsts RelateOp … isWithin()',
  relateMs.median,
);

console.log(`geoframe essentials (CPU), ${args.runs} runs, medians in ms`);
console.log(markdownTable(['case', 'n', 'geoframe ms', 'peer', 'peer ms', 'peer / ours'], rows));
