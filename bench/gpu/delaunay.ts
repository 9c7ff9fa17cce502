// The GPU Delaunay triangulation by per-site stars (ADR 0013) against delaunator on the same host:
// - per pass GPU time (timestamps) of the main submission: hull neighbours + cell count, cell
//   scatter, stars, star count (agreement check), emit, half-edge twins (scans counted in the gaps);
// - wall time of the whole stage (two hull round trips, the CPU chain, the statistics readback),
//   without reading the triangles back;
// - rings searched, incircle tests a site, the fraction the float filter left to exact paths,
//   sites whose star failed (the CPU would then answer);
// - delaunator (`new Delaunator(coords)`, one CPU thread) on the same points, and the ratio.
// Every case is checked once before timing: no failed star, 2n − 2 − h triangles, and every
// interior edge passes robust-predicates' incircle on the grid values (ties allowed).
//
// Bundle with esbuild (the `webgpu` package left external) and run with Node, e.g. through the
// GPU-host packing script: `pack.sh bench/gpu/delaunay.ts`, then
//   node .gpu/bundle/delaunay.mjs [--small] [--runs N] [--warmup N]
// Cases: 1e5 and 1e6 uniform, 1e6 lattice (`--small`: 1e4 uniform, 1e4 lattice; DELAUNAY_CASES).
// DELAUNAY_FIRST_PASS=lanes,threads runs each case with each first-pass kernel, DELAUNAY_SLOTS=1,2,4
// with each count of stars a workgroup of the first pass by lanes, DELAUNAY_TAIL_SIZE=64,256 with
// each tail workgroup size;
// DELAUNAY_FIRST_RINGS=2,3 runs each case with each first-pass ring count (default: the
// library's; at most 8 are taken); likewise DELAUNAY_CAPACITY=8,16 for the first pass's star
// capacity, DELAUNAY_SCAN=1,8,64 for its scan steps, DELAUNAY_PER_CELL=1,2,4 for the sites a
// bucket cell aims at, DELAUNAY_HULL_CLIP for the hull clip limit (every combination is run);
// DELAUNAY_PEERS=0 leaves delaunator out; DELAUNAY_ORDER=hilbert or shuffle reorders the sites first. DELAUNAY_CROSSOVER=1e4,3e4,1e5 also times what
// delaunayTriangles runs on each path, from sites to triangles in host arrays: `delaunayGpu` (the
// readback included) against the CPU's `delaunay`, for the dispatch crossover.

import { incircle } from 'robust-predicates';
import { boxOfXY } from '../../packages/core/src/index.js';
import Delaunator from '../../packages/cpu/node_modules/delaunator/index.js';
import { hilbertOrder } from '../../packages/cpu/src/delaunay/hilbert-order.js';
import { delaunay } from '../../packages/cpu/src/index.js';
import { CPU_STAGES } from '../../packages/geo/src/ops/engines.js';
import { delaunayGpu, gpuDelaunayStage } from '../../packages/gpu/src/delaunay/delaunay-gpu.js';
import { fixedGrid, wordsToBigInt } from '../../packages/gpu/src/exact/fixed-grid.js';
import { GpuProfiler } from '../../packages/gpu/src/index.js';
import { generatePoints, type PointSetKind, SeededRandom } from '../../packages/testing/src/index.js';
import {
  copyEncoder,
  createBenchContext,
  createCopyPair,
  describeDevice,
  fmt,
  heat,
  markdownTable,
  measure,
  median,
  parseBenchArgs,
  wallMs,
} from './bench-harness.js';

const args = parseBenchArgs();
const ctx = await createBenchContext();
const profiler = new GpuProfiler(ctx);
const [src, dst] = await createCopyPair(ctx, 64 << 20);
const copy = await copyEncoder(ctx, src, dst);

// DELAUNAY_CASES=uniform:1e6,lattice:1e6,uniform:1e7 picks the cases (kind:size, comma separated)
const chosen = process.env.DELAUNAY_CASES?.split(',').map((c): [PointSetKind, number] => {
  const [kind, size] = c.split(':');
  return [kind as PointSetKind, Number(size)];
});
const cases: [PointSetKind, number][] = chosen
  ? chosen
  : args.small
    ? [
        ['uniform', 10_000],
        ['lattice', 10_000],
      ]
    : [
        ['uniform', 100_000],
        ['uniform', 1_000_000],
        ['lattice', 1_000_000],
      ];

/** Interior edges failing the empty-circle test on the grid values (robust-predicates). */
function emptyCircleFailures(sites: Float64Array, triangles: Uint32Array, halfedges: Int32Array): number {
  const words = fixedGrid(sites, boxOfXY(sites)).sites;
  const xy = new Float64Array(sites.length);
  for (let k = 0; k < sites.length; k++) xy[k] = Number(wordsToBigInt(words, 2 * k));
  const next = (e: number): number => (e % 3 === 2 ? e - 2 : e + 1);
  let bad = 0;
  for (let e = 0; e < halfedges.length; e++) {
    const f = halfedges[e];
    if (f < e) continue;
    const t = e - (e % 3);
    const [a, b, c, d] = [triangles[t], triangles[t + 1], triangles[t + 2], triangles[next(next(f))]];
    const s = incircle(
      xy[2 * a],
      xy[2 * a + 1],
      xy[2 * b],
      xy[2 * b + 1],
      xy[2 * c],
      xy[2 * c + 1],
      xy[2 * d],
      xy[2 * d + 1],
    );
    if (s < 0) bad++;
  }
  return bad;
}

// Option variants: each knob's values (comma separated; a knob left out keeps the library's
// default), every combination run; the label names the knobs given more than one value.
const knobs = [
  ['DELAUNAY_FIRST_PASS', 'firstPass', 'first pass'],
  ['DELAUNAY_FIRST_RINGS', 'firstPassRings', 'first rings'],
  ['DELAUNAY_SLOTS', 'starsPerWorkgroup', 'stars a workgroup'],
  ['DELAUNAY_TAIL_SIZE', 'tailWorkgroupSize', 'tail workgroup'],
  ['DELAUNAY_CAPACITY', 'firstPassCapacity', 'capacity'],
  ['DELAUNAY_SCAN', 'firstPassScan', 'scan'],
  ['DELAUNAY_PER_CELL', 'sitesPerCell', 'per cell'],
  ['DELAUNAY_HULL_CLIP', 'hullClipLimit', 'hull clip'],
] as const;
type Variant = Partial<Record<(typeof knobs)[number][1], number | string>>;
let variants: { options: Variant; label: string }[] = [{ options: {}, label: '' }];
for (const [env, option, name] of knobs) {
  const values = process.env[env]?.split(',').map((v) => (Number.isNaN(Number(v)) ? v : Number(v)));
  if (!values) continue;
  variants = variants.flatMap(({ options, label }) =>
    values.map((v) => ({
      options: { ...options, [option]: v },
      label: values.length > 1 ? `${label}, ${name} ${v}` : label,
    })),
  );
}
// DELAUNAY_ORDER=hilbert hands the sites over in Hilbert order (as the Voronoi pipeline does),
// DELAUNAY_ORDER=shuffle in a seeded random order; default: as generated (uniform sites in
// random order, the lattice row by row)
const ordered = (xy: Float64Array): Float64Array => {
  const how = process.env.DELAUNAY_ORDER;
  if (how !== 'hilbert' && how !== 'shuffle') return xy;
  const order = how === 'hilbert' ? hilbertOrder(xy) : shuffled(xy.length >> 1);
  const out = new Float64Array(xy.length);
  for (let k = 0; k < order.length; k++) {
    out[2 * k] = xy[2 * order[k]];
    out[2 * k + 1] = xy[2 * order[k] + 1];
  }
  return out;
};
function shuffled(n: number): Uint32Array {
  const order = Uint32Array.from({ length: n }, (_, k) => k);
  const random = new SeededRandom(7);
  for (let k = n - 1; k > 0; k--) {
    const j = Math.floor(random.next() * (k + 1));
    [order[k], order[j]] = [order[j], order[k]];
  }
  return order;
}
// DELAUNAY_PEERS=0 skips delaunator (exploratory runs of several variants)
const peers = process.env.DELAUNAY_PEERS !== '0';

console.log(describeDevice(ctx));
const rows: (string | number)[][] = [];
const passRows: (string | number)[][] = [];
for (const [kind, n] of cases) {
  for (const variant of variants) {
    const label = `${kind} ${fmt(n)}${variant.label}`;
    const sites = ordered(generatePoints(kind, n, 1));
    const checked = await delaunayGpu(ctx, sites, { fallback: 'never', ...variant.options });
    if (checked === null) throw new Error(`${kind} ${n}: no triangle`);
    const { stats } = checked;
    const failures = emptyCircleFailures(sites, checked.triangles, checked.halfedges);
    if (stats.fallbackReason !== null || failures > 0) {
      console.log(`${label}: ${stats.fallbackReason ?? 'ok'}, ${failures} edges not Delaunay`);
    }
    const passTimes = new Map<string, number[]>();
    const totals: number[] = [];
    const walls: number[] = [];
    const hulls: number[] = [];
    const encodes: number[] = [];
    const results: number[] = [];
    for (let r = 0; r < args.warmup + args.runs; r++) {
      await heat(ctx, copy, 250);
      let hullMs = 0;
      let encodeMs = 0;
      let resultMs = 0;
      const wall = await wallMs(async () => {
        const result = await gpuDelaunayStage(ctx, sites, {
          profiler,
          fallback: 'never',
          ...variant.options,
        });
        hullMs = result?.stats.hullMs ?? 0;
        encodeMs = result?.stats.encodeMs ?? 0;
        resultMs = result?.stats.resultMs ?? 0;
      });
      const passes = await profiler.read();
      if (r < args.warmup) continue;
      walls.push(wall);
      hulls.push(hullMs);
      encodes.push(encodeMs);
      results.push(resultMs);
      totals.push(passes.reduce((sum, p) => sum + p.ms, 0));
      for (const p of passes) passTimes.set(p.name, [...(passTimes.get(p.name) ?? []), p.ms]);
    }
    const coords = new Float64Array(sites);
    const delaunator = peers
      ? await measure(() => wallMs(() => new Delaunator(coords)), { runs: Math.min(args.runs, 5), warmup: 1 })
      : { median: Number.NaN };
    const wall = median(walls);
    rows.push([
      label,
      fmt(median(passTimes.get('stars') ?? [])),
      `${fmt(median(passTimes.get('stars exact') ?? [0]))} (${stats.tiedSites})`,
      `${fmt(median(passTimes.get('stars tail') ?? [0]))} (${stats.tailSites})`,
      fmt(median(totals)),
      fmt(median(hulls)),
      `${fmt(median(encodes))} / ${fmt(median(results))}`,
      fmt(wall),
      `${fmt(stats.meanRing)} / ${stats.maxRing}`,
      `${fmt(stats.cellsVisited / n)} / ${stats.maxCellsVisited}`,
      fmt(stats.candidates / n),
      `${stats.halfPlanes} / ${stats.hullClips}`,
      fmt(stats.incircleTests / n),
      `${fmt(stats.exactSteps / n)} / ${fmt(stats.edits / n)}`,
      `${fmt(100 * stats.exactFraction, 2)} %`,
      stats.failedSites + stats.disagreeingSites,
      `${stats.hullCandidates} → ${stats.hull}`,
      fmt(delaunator.median),
      fmt(delaunator.median / wall),
    ]);
    for (const [name, times] of passTimes) passRows.push([label, name, fmt(median(times))]);
  }
}
console.log(
  markdownTable(
    [
      'case',
      'stars ms',
      'ties ms (stars)',
      'tail ms (stars)',
      'GPU passes ms',
      'hull round trip ms',
      'record / submit to result ms',
      'stage wall ms',
      'rings mean / max',
      'cells visited mean / max',
      'candidates / site',
      'half-planes / hull clips',
      'incircle / site',
      'exact steps / edits a site',
      'not by filter',
      'failed',
      'hull cand. → h',
      'delaunator ms',
      'delaunator / wall',
    ],
    rows,
  ),
);
console.log(markdownTable(['case', 'pass', 'median ms'], passRows));
profiler.destroy();
src.destroy();
dst.destroy();

// crossover of delaunayTriangles: both paths end to end (host sites in, host triangles out)
const crossSizes = process.env.DELAUNAY_CROSSOVER?.split(',').map(Number) ?? [];
if (crossSizes.length > 0) {
  const cross: (string | number)[][] = [];
  for (const n of crossSizes) {
    const sites = generatePoints('uniform', n, 2);
    const gpu = await measure(
      () => wallMs(() => delaunayGpu(ctx, sites, { cpuDelaunay: CPU_STAGES.delaunay })),
      { runs: args.runs, warmup: 1 },
    );
    const cpu = await measure(() => wallMs(() => delaunay(sites)), { runs: args.runs, warmup: 1 });
    cross.push([fmt(n), fmt(cpu.median), fmt(gpu.median), gpu.median < cpu.median ? 'GPU' : 'CPU']);
  }
  console.log('delaunayTriangles paths, uniform sites, ms (median):');
  console.log(markdownTable(['sites', 'CPU delaunay', 'GPU delaunayGpu', 'faster'], cross));
}
