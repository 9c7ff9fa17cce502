// The cost of the GPU's faithful-representation guard (adr/0020): `voronoiCellsGpu` end to end
// with the guard and without it (`guard: false`, timing only), interleaved in one run on the same
// sites, for uniform sites in [0, 1000)² (about 3 % of them rounded by the grid: those below 16),
// the same shifted to [1000, 2000)² (every site exact), a lattice and gaussian clusters. Also what
// the guard saw: triangles touching rounded sites, and those left to the host.
//
// Bundle with esbuild (the `webgpu` package left external), e.g. `pack.sh bench/gpu/voronoi-guard.ts`,
// then `node --expose-gc .gpu/bundle/voronoi-guard.mjs [--small] [--runs N] [--warmup N]`.
// GUARD_SIZES=1e6,1e7 sets the sizes (default 1e5, 1e6, 1e7; `--small`: 1e3, 1e4).
import { clipBox, uniqueSites } from '../../packages/core/src/index.js';
import { voronoiCellsGpu } from '../../packages/gpu/src/index.js';
import { generatePoints } from '../../packages/testing/src/index.js';
import {
  createBenchContext,
  describeDevice,
  fmt,
  markdownTable,
  median,
  parseBenchArgs,
} from './bench-harness.js';

const args = parseBenchArgs();
const collect = (globalThis as { gc?: () => void }).gc;
const sizes = process.env.GUARD_SIZES?.split(',').map(Number) ?? (args.small ? [1e3, 1e4] : [1e5, 1e6, 1e7]);
const ctx = await createBenchContext();
console.log(
  `voronoi guard cost — ${describeDevice(ctx)}; medians of ${args.runs} after ${args.warmup} warm-up, guard on/off interleaved\n`,
);

const kinds = ['uniform', 'uniform shifted', 'lattice', 'clusters'] as const;
function sitesOf(kind: (typeof kinds)[number], n: number): Float64Array {
  const base = kind === 'uniform shifted' ? 'uniform' : kind;
  const xy = uniqueSites(generatePoints(base, n, 42)).xy;
  if (kind === 'uniform shifted') for (let i = 0; i < xy.length; i++) xy[i] += 1000;
  return xy;
}

const rows: (string | number)[][] = [];
for (const n of sizes) {
  for (const kind of kinds) {
    const sites = sitesOf(kind, n);
    const box = clipBox(sites, null);
    const runs = n >= 1e7 ? Math.min(args.runs, 5) : args.runs;
    const on: number[] = [];
    const off: number[] = [];
    let seen = '';
    for (let i = 0; i < args.warmup + runs; i++) {
      for (const guard of [true, false]) {
        collect?.();
        const t0 = performance.now();
        const { stats } = await voronoiCellsGpu(ctx, sites, box, { guard });
        const ms = performance.now() - t0;
        if (i < args.warmup) continue;
        (guard ? on : off).push(ms);
        if (guard) {
          const g = stats.delaunay;
          seen = `${g.path}${g.fallbackReason ? ` (${g.fallbackReason})` : ''}`;
        }
      }
    }
    const [a, b] = [median(on), median(off)];
    rows.push([n.toExponential(0), kind, a, b, fmt((100 * (a - b)) / b, 2), seen]);
  }
}
console.log(
  markdownTable(['sites', 'input', 'guard on (ms)', 'guard off (ms)', 'cost (%)', 'Delaunay stage'], rows),
);
