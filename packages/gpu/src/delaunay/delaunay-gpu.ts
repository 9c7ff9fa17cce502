import type { Box } from '@geoframe/core';
import type { FixedGrid } from '../exact/fixed-grid.js';
import { toGrid } from '../exact/fixed-grid.js';
import { gridOfBounds, TO_GRID_KERNEL } from '../exact/to-grid-kernel.js';
import { encodeTwins } from '../mesh/halfedge-kernels.js';
import { CELL_WORKGROUP_SIZE } from '../mesh/halfedge-wgsl.js';
import { sitesInOrder } from '../order/hilbert-order.js';
import { encodeCompact } from '../primitives/compact/compact.js';
import { type PlannedDispatch, recordDispatches } from '../primitives/dispatch-recorder.js';
import { encodeScan } from '../primitives/scan/encode-scan.js';
import { scratchBuffer } from '../primitives/scratch.js';
import { readback, uploadStorage } from '../runtime/buffers.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import type { KernelConstants, KernelSpec } from '../runtime/pipeline-cache.js';
import type { GpuProfiler } from '../runtime/profiler.js';
import { runExclusive } from '../runtime/run-queue.js';
import { submitAndRead, submitForRead } from '../runtime/staging.js';
import { BufferUsage } from '../runtime/usage.js';
import { BUCKET_WORKGROUP_SIZE, CELL_COUNT_KERNEL, CELL_SCATTER_KERNEL } from './bucket-kernels.js';
import { type CpuStages, cpuStageOf, type DelaunayStage, requireCpu } from './delaunay-stage.js';
import {
  CLUSTER_LIMIT,
  checkClusters,
  decideGuard,
  GUARD_BYTES,
  type GuardInput,
  guardSites,
  recordGuard,
} from './guard.js';
import { GUARD_HEADER_WORDS } from './guard-kernel.js';
import { hullOfCandidates } from './hull-chain.js';
import {
  EXTREMES_ITEMS,
  EXTREMES_KERNEL,
  EXTREMES_WORKGROUP_SIZE,
  HULL_GATHER_KERNEL,
  HULL_SCATTER_KERNEL,
  OCTAGON_FILTER_KERNEL,
} from './hull-kernels.js';
import { type StarGrid, starGridOf } from './star-grid.js';
import {
  firstPassShape,
  STAR_CAPACITY,
  STAR_COUNT_KERNEL,
  STAR_EMIT_KERNEL,
  STAR_FIRST_CAPACITY,
  STAR_KERNEL,
  STAR_STATS_WORDS,
  STAR_WORKGROUP_SIZE,
} from './star-kernels.js';
import { laneCandidates, laneRings, laneShape, STAR_LANES_KERNEL } from './star-lanes-kernel.js';
import { STAR_TAIL_KERNEL, STAR_TAIL_WORKGROUP_SIZE } from './star-tail-kernel.js';

/** Most rings the first pass inserts whole (its work grows with their square). */
const FIRST_PASS_MAX_RINGS = 8;

/** Hull survivors read back with their count (more take a second readback). */
const HULL_READ = 8192;

/** Options of {@link gpuDelaunayStage} and {@link delaunayGpu}. */
export interface DelaunayGpuOptions {
  /**
   * Rings of cells searched around a site before it is given up (counted; CPU fallback). Default:
   * the whole grid (only cells that can still hold a conflicting site are visited once the star
   * is closed, so the candidate budget is what bounds the work).
   */
  ringLimit?: number;
  /**
   * Rings of cells around a site the first pass takes whole; stars unfinished there go on in the
   * tail pass, a workgroup a star (ADR 0013). At most 8 are taken. Default: by lanes, the fewest
   * whose block holds about 45 sites at the grid's mean density (3 at ≈ 1 site a cell); per
   * thread, 3.
   */
  firstPassRings?: number;
  /**
   * How the first pass builds a star: `'lanes'` (default), 32 lanes a star and a lane a
   * candidate, every lane clipping its candidate's bisector by the others, nearest first, the
   * stars with float ties then built by the per-thread pass; or `'threads'`, the per-thread pass
   * for every star, a thread inserting its candidates one by one (the earlier first pass;
   * `firstPassCapacity` and `firstPassScan` apply to the per-thread pass only).
   */
  firstPass?: 'lanes' | 'threads';
  /**
   * Stars a workgroup of the first pass by lanes builds together, 32 lanes each (fewer when
   * their workgroup memory does not fit the device). Default 2.
   */
  starsPerWorkgroup?: number;
  /** Threads of a tail-pass workgroup (one star, its cells spread over them). Default 64. */
  tailWorkgroupSize?: number;
  /**
   * Entries a star of the per-thread pass may hold (the workgroup memory of its pass scales with
   * it), at most `STAR_CAPACITY`; larger stars start again in the tail pass. Default
   * `STAR_FIRST_CAPACITY`.
   */
  firstPassCapacity?: number;
  /**
   * Steps (a cell or a candidate each) the per-thread pass's threads scan with the float test alone
   * before the warp runs the exact step for the candidates that passed (ADR 0013). Default 8.
   */
  firstPassScan?: number;
  /** Candidate sites one star may examine before it is given up. Default 65536. */
  candidateBudget?: number;
  /**
   * Largest hull whose vertices a star still open after two rings takes as candidates (closing it
   * at once instead of searching along a long hull edge). Default 4096.
   */
  hullSeedLimit?: number;
  /**
   * Largest hull that bounds the search of a half-plane conflict region (a loop over its vertices
   * each time one is computed at a finality check). Default 256.
   */
  hullClipLimit?: number;
  /**
   * Average sites per bucket cell aimed at (rounded to a power-of-two cell). Default 1: on the
   * H100, 2 was as fast for uniform sites and 1.8× slower for clustered ones (ADR 0013).
   */
  sitesPerCell?: number;
  /** The sites already on the fixed grid (`vec4u` a site) with its grid; converted here otherwise. */
  fixed?: { sites: GPUBuffer; grid: FixedGrid };
  /**
   * With `fixed`: site k of the triangulation is `sites[order[k]]` (the caller's array is not in
   * the triangulation's order, which only the device sites follow). The hull candidates' grid
   * values come from the device, so the order is needed only past 8192 candidates and for a CPU
   * fallback (which gathers the whole array): it may be given as a function that reads it then.
   */
  order?: Uint32Array | (() => Promise<Uint32Array>);
  /**
   * The sites' bounding box, when the caller has it (every coordinate checked finite): spares the
   * stage its own scan of the sites.
   */
  bounds?: Box;
  /** Times the passes of the main submission (buckets, stars, count, scan, emit, twins). */
  profiler?: GpuProfiler;
  /** `'never'` reports failures as stats without the CPU answer (for benchmarks and tests). */
  fallback?: 'cpu' | 'never';
  /**
   * The CPU triangulation a failed run answers with (`CpuStages.delaunay`; geo hands in the CPU
   * engine's). Without it, a failure under `fallback: 'cpu'` throws a `GpuDeclinedError`.
   */
  cpuDelaunay?: CpuStages['delaunay'];
  /**
   * With `fixed`: the caller's f64 sites (`vec4u` of bits, caller order) and the order (curve →
   * caller) already on the device, which the faithful-representation guard reads (adr/0020);
   * uploaded here otherwise.
   */
  input?: { xy: GPUBuffer; order: GPUBuffer };
  /**
   * The clip box whose cells will be built from this triangulation: the guard then also bounds
   * how far the grid's rounding can move their vertices (Voronoi). Default: predicates only.
   */
  cellsBox?: Box;
  /** Sites one bucket cell may hold before the run is declined as a cluster (0: no limit). */
  clusterLimit?: number;
  /**
   * `false` skips the faithful-representation guard (the cluster check stays): for benchmarks
   * that time its cost only — the answer may then be wrong where the grid rounds sites.
   */
  guard?: boolean;
}

/** What a GPU Delaunay run did. */
export interface DelaunayGpuStats {
  /** Where the answer came from: the stars, or the CPU after a failure (see `fallbackReason`). */
  path: 'gpu' | 'cpu';
  fallbackReason: string | null;
  sites: number;
  /** Sites that survived the octagon filter and went to the CPU monotone chain. */
  hullCandidates: number;
  /** Convex hull vertices (collinear boundary sites included). */
  hull: number;
  /** Triangles of the GPU stars (2n − 2 − h when complete). */
  triangles: number;
  grid: { width: number; height: number; shift: number };
  /** Sites whose star was not final (ring limit, overflow, budget, inconsistency). */
  failedSites: number;
  /** Final stars that disagree with a neighbour's. */
  disagreeingSites: number;
  meanRing: number;
  maxRing: number;
  /** Candidates inserted or tested, summed over sites, and the most one site examined. */
  candidates: number;
  maxCandidates: number;
  /** Grid cells visited (tested against the star's pending regions), summed over sites, and the
   * most one site visited. */
  cellsVisited: number;
  maxCellsVisited: number;
  /** Finality checks (each recomputes the pending conflict regions of a star, O(star × hull) for
   * half-plane regions), summed over sites, and the most of one site. */
  finalChecks: number;
  maxFinalChecks: number;
  /** Cheap finality checks of an unchanged star (its pending regions narrowed), summed over sites. */
  finalNarrowings: number;
  /** Sites that searched more than 4 rings (the tail of the work). */
  farSites: number;
  /** Stars the first pass handed to the tail pass (a workgroup a star). */
  tailSites: number;
  /** Half-plane conflict regions computed, and those clipped by the hull (a loop over it each). */
  halfPlanes: number;
  hullClips: number;
  /** Insertion steps past the float regions (exact tests, then maybe an edit), summed over sites. */
  exactSteps: number;
  /** Insertions that changed a star of three or more entries, summed over sites. */
  edits: number;
  /**
   * Stars the first pass by lanes handed to the per-thread pass: a tie or near-tie its floats
   * could not decide (cocircular or collinear sites).
   */
  tiedSites: number;
  /** Finite incircle tests, and the fraction the float filter could not decide. */
  incircleTests: number;
  exactFraction: number;
  /** Wall time of the hull round trip (extremes, filter, compaction, readback, chain, upload), ms. */
  hullMs: number;
  /** Wall time of recording the main submission (buckets to twins), ms. */
  encodeMs: number;
  /** Wall time from the main submission to its statistics in host memory (GPU work and mapping), ms. */
  resultMs: number;
  /**
   * The faithful-representation guard (adr/0020): triangles and hull turns touching a site the
   * grid rounds, and those of them its float bound left to the host's exact decision.
   */
  guard?: { touched: number; uncertain: number };
}

/** A GPU Delaunay stage: the pipeline's {@link DelaunayStage} plus what happened. */
export interface GpuDelaunayResult {
  stage: DelaunayStage;
  stats: DelaunayGpuStats;
}

interface Bounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/**
 * A grid value from its i64 words (low, high): exact, because grid values of sites are f64
 * values scaled by a power of two and rounded to an integer (53 significant bits at most).
 */
function fromWords(lo: number, hi: number): number {
  return (hi | 0) * 4294967296 + lo;
}

function boundsOf(xy: Float64Array): Bounds {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let k = 0; k < xy.length; k += 2) {
    const x = xy[k];
    const y = xy[k + 1];
    if (!Number.isFinite(x) || !Number.isFinite(y)) {
      throw new RangeError(`delaunayGpu: site ${k >> 1} has coordinates (${x}, ${y})`);
    }
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return { minX, minY, maxX, maxY };
}

/**
 * The Delaunay triangulation of `sites` on the GPU by per-site stars (ADR 0013), left in device
 * buffers: the pipeline's {@link DelaunayStage} (triangles clockwise in a y-up frame, delaunator's
 * half-edges) in this context's scratch buffers `delaunay/triangles` and `delaunay/halfedges`,
 * valid until the next call on the context.
 *
 * Sites must be unique and finite (as for the CPU's triangulation); the predicates are exact on
 * the fixed grid (ADR 0010) and cocircular ties are broken by index, so the result is a Delaunay
 * triangulation of the grid sites with every site a vertex and no flat triangle. When any star is
 * not final after the ring limit, overflows, disagrees with a neighbour, or the triangle count is
 * not 2n − 2 − h, the whole answer is the CPU's (`options.cpuDelaunay`, host arrays, stats say
 * why) unless `fallback: 'never'`, which returns the GPU buffers anyway with the failure in stats.
 *
 * Returns null when there is no triangle: fewer than 3 sites, or all collinear (exact).
 * @throws RangeError for a non-finite coordinate (naming the site).
 * Round trips: one for the hull candidates (two past 8192 of them), one for the statistics.
 */
export async function gpuDelaunayStage(
  ctx: GpuContext,
  sites: Float64Array,
  options: DelaunayGpuOptions = {},
): Promise<GpuDelaunayResult | null> {
  const n = sites.length >> 1;
  if (n < 3) return null;
  const bounds: Bounds = options.bounds ?? boundsOf(sites);
  const given = options.fixed ? options.order : undefined;
  if (given instanceof Uint32Array && given.length !== n)
    throw new RangeError(`delaunayGpu: ${given.length} order entries for ${n} sites`);
  // the order on the host, read (once) only where it is needed
  let order: Promise<Uint32Array> | null = given instanceof Uint32Array ? Promise.resolve(given) : null;
  const orderOf = (): Promise<Uint32Array> => {
    if (order !== null) return order;
    if (typeof given !== 'function') throw new Error('unreachable: no order');
    order = given().then((o) => {
      if (o.length !== n) throw new RangeError(`delaunayGpu: ${o.length} order entries for ${n} sites`);
      return o;
    });
    return order;
  };
  // the sites in the triangulation's order (only a CPU fallback needs them all)
  const ordered = async (): Promise<Float64Array> =>
    given === undefined ? sites : sitesInOrder(sites, await orderOf());
  const maxPerDimension = ctx.limits.maxComputeWorkgroupsPerDimension;
  const plan = <C extends KernelConstants>(
    kernel: KernelSpec<C>,
    params: ArrayLike<number>,
    buffers: GPUBuffer[],
    threads: number,
    size: number,
    constants: C = {} as C,
  ): PlannedDispatch => ({
    kernel: kernel as KernelSpec<never>,
    constants,
    params,
    entries: buffers.map((buffer, i) => ({ binding: i + 1, buffer })),
    workgroups: Math.ceil(threads / size),
  });
  const buffer = (name: string, bytes: number): GPUBuffer => scratchBuffer(ctx, `delaunay/${name}`, bytes);

  // sites on the fixed grid
  let grid: FixedGrid;
  let fixed: GPUBuffer;
  let upload: GPUBuffer | null = null;
  const first = ctx.device.createCommandEncoder({ label: 'delaunay hull' });
  if (options.fixed) {
    grid = options.fixed.grid;
    fixed = options.fixed.sites;
  } else {
    const box: Box = bounds;
    grid = gridOfBounds(sites, box);
    fixed = buffer('fixed', 16 * n);
    const xy = await uploadStorage(ctx, sites, 'delaunay sites');
    upload = xy;
    await recordDispatches(
      ctx,
      first,
      'delaunay/to-grid',
      [plan(TO_GRID_KERNEL, [n, grid.exponent >>> 0], [xy, fixed], n, CELL_WORKGROUP_SIZE)],
      maxPerDimension,
    );
  }

  // the guard's words: cleared, then the cluster count (word 2) goes into the hull's submission
  const guardOut = buffer('guard', GUARD_BYTES);
  first.clearBuffer(guardOut, 0, 4 * GUARD_HEADER_WORDS);
  const e = grid.exponent;
  const star: StarGrid = starGridOf(
    n,
    toGrid(bounds.minX, e),
    toGrid(bounds.minY, e),
    toGrid(bounds.maxX, e),
    toGrid(bounds.maxY, e),
    options.sitesPerCell ?? 1,
  );
  const cells = star.width * star.height;
  const clusterLimit = options.clusterLimit ?? CLUSTER_LIMIT;
  const gridParams = [n, star.width, star.shift, clusterLimit, ...star.minWords];
  const cellOf = buffer('cell-of', 4 * n);
  const cellStart = buffer('cell-start', 4 * (cells + 1));
  first.clearBuffer(cellStart, 0, 4 * (cells + 1));
  await recordDispatches(
    ctx,
    first,
    'delaunay/cell-count',
    [plan(CELL_COUNT_KERNEL, gridParams, [fixed, cellOf, cellStart, guardOut], n, BUCKET_WORKGROUP_SIZE)],
    maxPerDimension,
  );

  // hull candidates: 8 extremes, octagon filter, compaction
  const hullStart = performance.now();
  const chunk = EXTREMES_WORKGROUP_SIZE * EXTREMES_ITEMS;
  let groups = Math.ceil(n / chunk);
  let from = buffer('extremes-a', 32 * groups);
  let to = buffer('extremes-b', 32 * groups);
  const extremePlans: PlannedDispatch[] = [];
  extremePlans.push({ ...plan(EXTREMES_KERNEL, [n, 0], [fixed, fixed, from], 1, 1), workgroups: groups });
  while (groups > 1) {
    const items = 8 * groups;
    groups = Math.ceil(items / chunk);
    extremePlans.push({ ...plan(EXTREMES_KERNEL, [items, 1], [fixed, from, to], 1, 1), workgroups: groups });
    [from, to] = [to, from];
  }
  const flags = buffer('hull-flags', 4 * n);
  const candidates = buffer('hull-candidates', 4 * n);
  const candidateCount = buffer('hull-candidate-count', 4);
  for (const p of extremePlans)
    await recordDispatches(ctx, first, 'delaunay/hull-extremes', [p], maxPerDimension);
  await recordDispatches(
    ctx,
    first,
    'delaunay/hull-filter',
    [plan(OCTAGON_FILTER_KERNEL, [n], [fixed, from, flags], n, EXTREMES_WORKGROUP_SIZE)],
    maxPerDimension,
  );
  await encodeCompact(ctx, first, { flags, count: n, indicesOut: candidates, countOut: candidateCount });
  // the count, the first HULL_READ survivors and their grid values (gathered on the device) in one
  // mapping of a reused staging buffer (a new buffer per run costs error scopes, each a wait for
  // Dawn's events); more survivors, another readback
  const head = Math.min(n, HULL_READ);
  const headGrid = buffer('hull-head-grid', 16 * head);
  await recordDispatches(
    ctx,
    first,
    'delaunay/hull-gather',
    [
      plan(
        HULL_GATHER_KERNEL,
        [head],
        [fixed, candidates, candidateCount, headGrid],
        head,
        EXTREMES_WORKGROUP_SIZE,
      ),
    ],
    maxPerDimension,
  );
  const hullRead = await submitForRead(ctx, first, 'delaunay/hull-candidates', [
    { source: candidateCount, bytes: 4 },
    { source: candidates, bytes: 4 * head },
    { source: headGrid, bytes: 16 * head },
    { source: guardOut, bytes: 4 * GUARD_HEADER_WORDS },
  ]);
  const clusterHeader = new Uint32Array(GUARD_HEADER_WORDS);
  const { value: read } = await hullRead.read((range, offsets) => {
    clusterHeader.set(new Uint32Array(range, offsets[3], GUARD_HEADER_WORDS));
    const m = new Uint32Array(range, offsets[0], 1)[0];
    const ids = new Uint32Array(m);
    ids.set(new Uint32Array(range, offsets[1], Math.min(m, head)));
    const xy = new Float64Array(2 * m);
    const words = new Uint32Array(range, offsets[2], 4 * Math.min(m, head));
    for (let k = 0; k < Math.min(m, head); k++) {
      xy[2 * k] = fromWords(words[4 * k], words[4 * k + 1]);
      xy[2 * k + 1] = fromWords(words[4 * k + 2], words[4 * k + 3]);
    }
    return { ids, xy };
  });
  if (clusterHeader[2] > 0) upload?.destroy();
  checkClusters(clusterHeader, clusterLimit);
  const { ids, xy: candidateXy } = read;
  const m = ids.length;
  if (m > head) {
    // past the head: the ids, and the grid values of their caller's sites
    ids.set(await readback(ctx, candidates, new Uint32Array(m - head), 4 * head), head);
    const callers = given === undefined ? null : await orderOf();
    for (let k = head; k < m; k++) {
      const c = callers === null ? ids[k] : callers[ids[k]];
      candidateXy[2 * k] = toGrid(sites[2 * c], grid.exponent);
      candidateXy[2 * k + 1] = toGrid(sites[2 * c + 1], grid.exponent);
    }
  }
  const hull = hullOfCandidates(ids, candidateXy);
  if (hull === null) return null;
  const h = hull.length;
  const triples = new Uint32Array(3 * h);
  for (let k = 0; k < h; k++) {
    triples[3 * k] = hull[k];
    triples[3 * k + 1] = hull[(k + h - 1) % h];
    triples[3 * k + 2] = hull[(k + 1) % h];
  }
  // a few words: written by the queue before the stars' submission, no buffer of their own
  const triplesBuffer = buffer('hull-triples', triples.byteLength);
  ctx.device.queue.writeBuffer(triplesBuffer, 0, triples);
  const hullMs = performance.now() - hullStart;

  const encoder = ctx.device.createCommandEncoder({ label: 'delaunay stars' });
  const prof = options.profiler;
  const pass = (name: string): GPUComputePassDescriptor | undefined => prof?.passDescriptor(name);
  // the main submission's passes: one label, one timed pass each
  const record = (label: string, dispatches: PlannedDispatch[], passName: string) =>
    recordDispatches(ctx, encoder, label, dispatches, maxPerDimension, pass(passName));
  const hullNbr = buffer('hull-neighbours', 8 * n);
  const cursor = buffer('cell-cursor', 4 * cells);
  const cellSites = buffer('cell-sites', 4 * n);
  const stars = buffer('stars', 4 * STAR_CAPACITY * n);
  const starInfo = buffer('star-info', 8 * n);
  const stats = buffer('stats', 4 * STAR_STATS_WORDS);
  // the tail list, then the list of stars the first pass by lanes hands to the per-thread pass
  const tailList = buffer('tail-list', 8 * n);
  // the tail count, then the tail pass's indirect workgroup counts (x raised by the first pass);
  // likewise for the stars handed to the per-thread pass (words 6, 9–11)
  const tailCount = ctx.device.createBuffer({
    label: 'delaunay tail count',
    size: 48,
    usage: BufferUsage.STORAGE | BufferUsage.INDIRECT | BufferUsage.COPY_SRC,
    mappedAtCreation: true,
  });
  new Uint32Array(tailCount.getMappedRange()).set([0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1]);
  tailCount.unmap();
  const exactArgs = ctx.device.createBuffer({
    label: 'delaunay per-thread pass arguments',
    size: 12,
    usage: BufferUsage.INDIRECT | BufferUsage.COPY_DST,
  });
  const counts = buffer('triangle-offsets', 4 * (n + 1));
  const nt = 2 * n - 2 - h;
  const triangles = buffer('triangles', 12 * nt);
  const halfedges = buffer('halfedges', 12 * nt);
  encoder.clearBuffer(hullNbr, 0, 8 * n);
  encoder.clearBuffer(cursor, 0, 4 * cells);
  encoder.clearBuffer(stats, 0, 4 * STAR_STATS_WORDS);
  encoder.clearBuffer(counts, 4 * n, 4);
  await record(
    'delaunay/buckets',
    [plan(HULL_SCATTER_KERNEL, [h], [triplesBuffer, hullNbr], h, EXTREMES_WORKGROUP_SIZE)],
    'hull + cell count',
  );
  await encodeScan(ctx, encoder, { input: cellStart, output: cellStart, count: cells + 1 });
  await record(
    'delaunay/cell-scatter',
    [plan(CELL_SCATTER_KERNEL, gridParams, [cellOf, cellStart, cursor, cellSites], n, BUCKET_WORKGROUP_SIZE)],
    'cell scatter',
  );
  const ringLimit = Math.min(options.ringLimit ?? Infinity, Math.max(star.width, star.height));
  const lanes = options.firstPass !== 'threads';
  const defaultRings = lanes ? laneRings(n / cells) : 3;
  const firstRings = Math.min(options.firstPassRings ?? defaultRings, FIRST_PASS_MAX_RINGS, ringLimit);
  const starParams = (rings: number, tail: boolean) => [
    ...[n, star.width, star.height, star.shift, ...star.minWords, rings],
    ...[options.candidateBudget ?? 65536, h, options.hullSeedLimit ?? 4096, tail ? 1 : 0],
    options.hullClipLimit ?? 256,
    // at least 1 (also for a NaN option): 0 steps would make the star search loop forever
    Math.max(1, Math.floor(options.firstPassScan ?? 8) || 1),
  ];
  // stars unfinished after the first pass's rings go on in the tail pass (over its capacity: always)
  const tail = firstRings < ringLimit;
  const starBuffers = [fixed, cellStart, cellSites, hullNbr, stars, starInfo, stats, triplesBuffer];
  const shape = firstPassShape(
    options.firstPassCapacity ?? STAR_FIRST_CAPACITY,
    ctx.limits.maxComputeWorkgroupStorageSize,
  );
  const listBuffers = [...starBuffers, tailList, tailCount];
  const perThread = (listed: boolean): PlannedDispatch =>
    plan(STAR_KERNEL, starParams(firstRings, tail), listBuffers, n, shape.lanes, { ...shape, listed });
  if (lanes) {
    // a workgroup a star; ties go on to the per-thread pass (indirect: the count is the GPU's)
    const rows = 2 * firstRings + 1;
    const { slots, candidates } = laneShape(
      options.starsPerWorkgroup ?? 2,
      laneCandidates(firstRings, n / cells),
      rows,
      ctx.limits.maxComputeWorkgroupStorageSize,
    );
    const byLanes = plan(STAR_LANES_KERNEL, starParams(firstRings, tail), listBuffers, n, slots, {
      candidates,
      rows,
      exactLanes: shape.lanes,
      slots,
    });
    await record('delaunay/stars', [byLanes], 'stars');
    // the per-thread pass appends to the tail list: its indirect arguments must be a copy
    encoder.copyBufferToBuffer(tailCount, 36, exactArgs, 0, 12);
    await record(
      'delaunay/stars-exact',
      [{ ...perThread(true), indirect: { buffer: exactArgs, offset: 0 } }],
      'stars exact',
    );
  } else {
    await record('delaunay/stars', [perThread(false)], 'stars');
  }
  // a workgroup a listed star, at most STAR_TAIL_GROUPS (they take the stars in turn): the count
  // is known to the GPU only
  const tailPlan = plan(STAR_TAIL_KERNEL, starParams(ringLimit, false), listBuffers, 1, 1, {
    size: Math.min(
      options.tailWorkgroupSize ?? STAR_TAIL_WORKGROUP_SIZE,
      ctx.limits.maxComputeInvocationsPerWorkgroup,
    ),
  });
  await record(
    'delaunay/stars-tail',
    [{ ...tailPlan, indirect: { buffer: tailCount, offset: 12 } }],
    'stars tail',
  );
  await record(
    'delaunay/star-count',
    [plan(STAR_COUNT_KERNEL, [n], [stars, starInfo, counts, stats], n, STAR_WORKGROUP_SIZE)],
    'star count',
  );
  await encodeScan(ctx, encoder, { input: counts, output: counts, count: n + 1 });
  await record(
    'delaunay/star-emit',
    [plan(STAR_EMIT_KERNEL, [n], [stars, starInfo, counts, triangles], n, STAR_WORKGROUP_SIZE)],
    'emit',
  );
  // half-edge twins for the expected count; checked against the emitted count below
  await encodeTwins(ctx, encoder, {
    triangles,
    halfedges,
    sites: n,
    halfedgeCount: 3 * nt,
    pass: pass('twins'),
  });
  // the faithful-representation guard over the triangles touching sites the grid rounds
  const guardInput: GuardInput = {
    fixed,
    grid,
    box: options.cellsBox ?? null,
    ...(options.guard === false
      ? { xy: fixed, order: null }
      : await guardSites(
          ctx,
          sites,
          upload,
          options.input,
          options.fixed && options.order !== undefined ? orderOf : null,
        )),
  };
  const guarded = options.guard !== false;
  if (guarded)
    await recordGuard(
      ctx,
      encoder,
      { triangles, halfedges, triples: triplesBuffer, out: guardOut },
      guardInput,
      nt,
      h,
      pass('guard'),
    );
  prof?.resolve(encoder);
  // the statistics, the emitted triangle count and the guard's header in one mapping
  const words = new Uint32Array(STAR_STATS_WORDS);
  const emittedWord = new Uint32Array(1);
  const guardHeader = new Uint32Array(GUARD_HEADER_WORDS);
  const submitted = performance.now();
  await submitAndRead(ctx, encoder, 'delaunay/statistics', [
    { source: stats, target: words },
    { source: counts, sourceOffset: 4 * n, target: emittedWord },
    { source: guardOut, target: guardHeader },
  ]);
  const resultMs = performance.now() - submitted;
  const encodeMs = submitted - hullStart - hullMs;
  const emitted = emittedWord[0];
  tailCount.destroy();
  exactArgs.destroy();

  const result: DelaunayGpuStats = {
    path: 'gpu',
    fallbackReason: null,
    sites: n,
    hullCandidates: m,
    hull: h,
    triangles: emitted,
    grid: { width: star.width, height: star.height, shift: star.shift },
    failedSites: words[0],
    disagreeingSites: words[6],
    meanRing: words[1] / n,
    maxRing: words[2],
    candidates: words[5],
    maxCandidates: words[7],
    farSites: words[8],
    tailSites: words[14],
    halfPlanes: words[15],
    hullClips: words[16],
    exactSteps: words[17],
    edits: words[18],
    tiedSites: words[19],
    cellsVisited: words[9],
    maxCellsVisited: words[10],
    finalChecks: words[11],
    maxFinalChecks: words[12],
    finalNarrowings: words[13],
    incircleTests: words[3],
    exactFraction: words[3] > 0 ? words[4] / words[3] : 0,
    hullMs,
    encodeMs,
    resultMs,
  };
  if (words[0] > 0) result.fallbackReason = `${words[0]} stars not final`;
  else if (words[6] > 0) result.fallbackReason = `${words[6]} stars disagree with a neighbour`;
  else if (emitted !== nt) result.fallbackReason = `${emitted} triangles, expected 2n - 2 - h = ${nt}`;
  result.guard = { touched: guardHeader[1], uncertain: guardHeader[0] };
  if (result.fallbackReason !== null && options.fallback !== 'never') {
    upload?.destroy();
    const triangulate =
      options.cpuDelaunay ?? requireCpu(undefined, 'delaunay on the GPU', result.fallbackReason).delaunay;
    const cpu = cpuStageOf(await triangulate(await ordered()));
    if (cpu === null) return null; // not reached: the hull said there is a triangle
    return { stage: cpu, stats: { ...result, path: 'cpu' } };
  }
  // stars that failed are answered by the CPU above, exactly: the guard speaks for the stars' own
  upload?.destroy();
  if (result.fallbackReason === null && guarded)
    await decideGuard(ctx, guardHeader, guardOut, sites, guardInput);
  return {
    stage: { triangles, halfedges, triangleCount: nt, path: 'gpu', flips: 0 },
    stats: result,
  };
}

/** A GPU Delaunay triangulation on the host: delaunator's arrays plus what happened. */
export interface DelaunayGpuOutput {
  /** Site indices, three per triangle, clockwise in a y-up frame. */
  triangles: Uint32Array;
  /** Per half-edge its twin, or −1 on the hull. */
  halfedges: Int32Array;
  stats: DelaunayGpuStats;
}

/**
 * {@link gpuDelaunayStage} with the result read back: the triangulation of `sites` (interleaved
 * xy, unique and finite; e.g. curve-ordered) in their numbering. Null when there is no triangle
 * (fewer than 3 sites or all collinear).
 */
async function delaunayGpuAlone(
  ctx: GpuContext,
  sites: Float64Array,
  options: DelaunayGpuOptions = {},
): Promise<DelaunayGpuOutput | null> {
  const result = await gpuDelaunayStage(ctx, sites, options);
  if (result === null) return null;
  const { stage, stats } = result;
  if (stage.triangles instanceof Uint32Array && stage.halfedges instanceof Int32Array) {
    return { triangles: stage.triangles, halfedges: stage.halfedges, stats };
  }
  const nh = 3 * stage.triangleCount;
  const triangles = await readback(ctx, stage.triangles as GPUBuffer, new Uint32Array(nh));
  const halfedges = await readback(ctx, stage.halfedges as GPUBuffer, new Int32Array(nh));
  return { triangles, halfedges, stats };
}

/**
 * {@link delaunayGpuAlone}, queued on the context with its other runs (one at a time, see
 * `runExclusive`): concurrent calls never share the context's temporaries.
 */
export function delaunayGpu(
  ...args: Parameters<typeof delaunayGpuAlone>
): ReturnType<typeof delaunayGpuAlone> {
  return runExclusive(args[0], () => delaunayGpuAlone(...args));
}
