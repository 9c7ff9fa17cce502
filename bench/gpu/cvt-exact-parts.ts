// Pieces of bench/gpu/cvt-exact.ts: the exact-mode iteration instrumented part by part, the
// evaluation as it was before the lean host pass (rebuilt here, to compare in one process), and
// the host's per-iteration costs timed alone.
import type { Box } from '../../packages/core/src/index.js';
import { CvtError } from '../../packages/core/src/index.js';
import { addUniformMoments, type CellMoments, cellMoments } from '../../packages/cpu/src/cvt/cell-moments.js';
import { interiorBucketsFor } from '../../packages/cpu/src/cvt/interior-buckets.js';
import { RegionCellMoments } from '../../packages/cpu/src/cvt/region-cell-moments.js';
import { evaluationOf, regionArea, SiteCheck } from '../../packages/cpu/src/cvt/sourced-evaluator.js';
import {
  type CvtEvaluation,
  exactEvaluator,
  type MomentSource,
  runCvtAsync,
  type SourcedMoments,
  uniqueCvtSites,
} from '../../packages/cpu/src/index.js';
import type { CvtRegion } from '../../packages/geo/src/cvt/cvt-region.js';
import { dispatchOperation } from '../../packages/geo/src/ops/dispatch-operation.js';
import { CPU_STAGES } from '../../packages/geo/src/ops/engines.js';
import { cvtCellMomentsGpu, type GpuContext, voronoiCellsGpuOnDevice } from '../../packages/gpu/src/index.js';
import { fmt } from './bench-harness.js';

export function problemOf(region: CvtRegion, sites: Float64Array, its: number) {
  return {
    sites,
    region: region.clip,
    ...(region.isBox ? { regionBox: region.box } : {}),
    density: { kind: 'uniform' as const },
    method: 'lloyd' as const,
    maxIterations: its,
    tolerance: 0,
  };
}

export function diagonal(region: CvtRegion): number {
  const b = region.box;
  return Math.hypot(b.maxX - b.minX, b.maxY - b.minY);
}

/** What one instrumented run measured, ms per iteration, and the last source answer (copied). */
export interface Laps {
  row: (string | number)[];
  last: SourcedMoments | null;
  lastSites: Float64Array | null;
}

/**
 * A Lloyd run through the API's evaluator with a timed moment source (no dispatch): the Voronoi
 * pipeline (cells kept), the moments kernel with its read-back and the boundary rings, the host's
 * evaluation (the rest of `evaluate`), the optimiser (the rest of the wall).
 */
export async function instrumentedRun(
  ctx: GpuContext,
  region: CvtRegion,
  sites: Float64Array,
  iterations: number,
): Promise<Laps> {
  const t = { voronoi: 0, moments: 0, hostRows: 0, evaluate: 0, cpuDelaunay: 0 };
  const stages = new Map<string, number>();
  let last: SourcedMoments | null = null;
  let lastSites: Float64Array | null = null;
  let calls = 0;
  const source: MomentSource = async (xy, box, interior, raw) => {
    const t0 = performance.now();
    const { cells, stats } = await voronoiCellsGpuOnDevice(ctx, xy, box, { cpu: CPU_STAGES });
    const t1 = performance.now();
    for (const { stage, ms } of stats.stages) stages.set(stage, (stages.get(stage) ?? 0) + ms);
    if (stats.delaunay.path === 'cpu') t.cpuDelaunay++;
    const got = await cvtCellMomentsGpu(cells, xy, interior, raw);
    t.moments += performance.now() - t1;
    t.voronoi += t1 - t0;
    t.hostRows += got.hostRows.length;
    cells.destroy();
    if (++calls === iterations) {
      // the last iterate, kept for `hostPieces` (copied: the run reuses its arrays)
      last = { ...got, raw: got.raw.slice() };
      lastSites = xy.slice();
    }
    return got;
  };
  const evaluator = exactEvaluator(problemOf(region, sites, iterations), () => never(), source);
  const evaluate = async (x: Float64Array) => {
    const t0 = performance.now();
    const e = await evaluator(x);
    t.evaluate += performance.now() - t0;
    return e;
  };
  const t0 = performance.now();
  await runCvtAsync(sites, evaluate, {
    method: 'lloyd',
    maxIterations: iterations,
    tolerance: 0,
    diagonal: diagonal(region),
  });
  const wall = performance.now() - t0;
  const per = (v: number) => v / iterations;
  if (iterations > 1) {
    const laps = [...stages].map(([stage, ms]) => `${stage} ${fmt(per(ms))}`).join('; ');
    console.log(
      `  Voronoi stages per iteration (${region.isBox ? 'square' : 'star'}): ${laps}; CPU Delaunay in ${t.cpuDelaunay} of ${iterations}`,
    );
  }
  const row = [
    per(wall),
    per(t.voronoi),
    per(t.moments),
    fmt(per(t.hostRows), 4),
    per(t.evaluate - t.voronoi - t.moments),
    per(wall - t.evaluate),
  ];
  return { row, last, lastSites };
}

function never(): never {
  throw new CvtError('cells asked for');
}

/**
 * The evaluation as it ran before the lean host pass: per evaluation a finite check, the unique
 * check with its copies (`uniqueCvtSites`), the dispatch planned again, a new moments array, the
 * moments per site in four arrays, then F, ∇F and the centroids from them. Wall ms of `its`
 * Lloyd iterations.
 */
export async function previousRun(region: CvtRegion, sites: Float64Array, its: number): Promise<number> {
  const regionMoments = new RegionCellMoments(region.clip);
  let buckets: ReturnType<typeof interiorBucketsFor> | null = null;
  const evaluate = async (x: Float64Array): Promise<CvtEvaluation> => {
    for (let i = 0; i < x.length; i++) if (!Number.isFinite(x[i])) throw new CvtError('non-finite');
    const { xy } = uniqueCvtSites(x);
    const inBox = region.isBox && within(xy, region.box);
    const box = inBox ? region.box : grown(region.box);
    if (!inBox) buckets ??= interiorBucketsFor(region.clip, regionArea(region.clip), xy.length >> 1);
    const interior = inBox ? null : buckets;
    const { value: got } = await dispatchOperation('voronoiPolygons', xy.length >> 1, 'gpu', {
      gpu: async (ctx) => {
        const { cells } = await voronoiCellsGpuOnDevice(ctx, xy, box, { cpu: CPU_STAGES });
        try {
          return await cvtCellMomentsGpu(cells, xy, interior);
        } finally {
          cells.destroy();
        }
      },
      cpu: () => never(),
    });
    return evaluation(x, sourcedCellMoments(got, xy, inBox ? null : regionMoments));
  };
  const t0 = performance.now();
  await runCvtAsync(sites, evaluate, {
    method: 'lloyd',
    maxIterations: its,
    tolerance: 0,
    diagonal: diagonal(region),
  });
  return performance.now() - t0;
}

function sourcedCellMoments(
  got: SourcedMoments,
  xy: Float64Array,
  region: RegionCellMoments | null,
): CellMoments {
  const count = xy.length >> 1;
  const m = cellMoments(count);
  const { raw, hostRows, hostCells } = got;
  for (let u = 0; raw !== null && u < count; u++) {
    if (Number.isNaN(raw[4 * u])) continue;
    m.mass[u] = raw[4 * u] / 2;
    m.sx[u] = raw[4 * u + 1] / 6;
    m.sy[u] = raw[4 * u + 2] / 6;
    m.energy[u] = raw[4 * u + 3] / 12;
  }
  const rows = hostRows === null ? count : hostRows.length;
  const span = { coords: hostCells.coords, ringOffsets: hostCells.ringOffsets, first: 0, last: 0 };
  for (let j = 0; j < rows && j + 1 < hostCells.ringOffsets.length; j++) {
    const u = hostRows === null ? j : hostRows[j];
    if (region !== null)
      region.add(hostCells.coords, hostCells.ringOffsets, j, xy[2 * u], xy[2 * u + 1], m, u);
    else {
      span.first = j;
      span.last = j + 1;
      addUniformMoments(span, xy[2 * u], xy[2 * u + 1], 1, m, u);
    }
  }
  return m;
}

function evaluation(x: Float64Array, m: CellMoments): CvtEvaluation {
  const n = m.mass.length;
  const gradient = new Float64Array(2 * n);
  const centroids = new Float64Array(2 * n);
  let energy = 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const mass = m.mass[i];
    energy += m.energy[i];
    total += mass;
    gradient[2 * i] = -2 * m.sx[i];
    gradient[2 * i + 1] = -2 * m.sy[i];
    centroids[2 * i] = mass > 0 ? x[2 * i] + m.sx[i] / mass : x[2 * i];
    centroids[2 * i + 1] = mass > 0 ? x[2 * i + 1] + m.sy[i] / mass : x[2 * i + 1];
  }
  return { energy, gradient, centroids, totalMass: total };
}

/**
 * The host's per-iteration pieces timed alone at the last iterate (median of 21 after 3 warm-ups,
 * ms): the old unique check, the new site scan, the old moments-to-evaluation passes, the new one
 * pass, and a dispatch planned per call (what the run-long plan saves).
 */
export async function hostPieces(region: CvtRegion, laps: Laps): Promise<string> {
  const { last, lastSites } = laps;
  if (last === null || lastSites === null) return '';
  const clip = region.isBox ? null : new RegionCellMoments(region.clip);
  const side = 8 * Math.sqrt(regionArea(region.clip) / (lastSites.length >> 1));
  const tiled = region.isBox ? null : new RegionCellMoments(region.clip, side);
  const check = new SiteCheck();
  const time = async (f: () => unknown) => {
    const ms: number[] = [];
    for (let k = 0; k < 24; k++) {
      const t0 = performance.now();
      await f();
      if (k >= 3) ms.push(performance.now() - t0);
    }
    return fmt(ms.sort((a, b) => a - b)[ms.length >> 1]);
  };
  const parts = [
    `unique check before ${await time(() => uniqueCvtSites(lastSites))}`,
    `site scan now ${await time(() => check.scan(lastSites))}`,
    `evaluation before ${await time(() => evaluation(lastSites, sourcedCellMoments(last, lastSites, clip)))}`,
    `one pass, region untiled ${await time(() => evaluationOf(last, lastSites, clip))}`,
    `evaluation now (tiled) ${await time(() => evaluationOf(last, lastSites, tiled))}`,
    `a dispatch planned ${await time(() => dispatchOperation('voronoiPolygons', lastSites.length >> 1, 'gpu', { gpu: async () => 0, cpu: () => 0 }))}`,
  ];
  return parts.join('; ');
}

function within(xy: Float64Array, b: Box): boolean {
  for (let i = 0; i < xy.length; i += 2) {
    if (!(xy[i] >= b.minX && xy[i] <= b.maxX && xy[i + 1] >= b.minY && xy[i + 1] <= b.maxY)) return false;
  }
  return true;
}

export function grown(b: Box): Box {
  const g = 0.1 * Math.max(b.maxX - b.minX, b.maxY - b.minY);
  return { minX: b.minX - g, minY: b.minY - g, maxX: b.maxX + g, maxY: b.maxY + g };
}
