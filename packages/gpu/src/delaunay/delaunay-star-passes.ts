import { encodeTwins } from '../mesh/halfedge-kernels.js';
import { type PlannedDispatch, recordDispatches } from '../primitives/dispatch-recorder.js';
import { encodeScan } from '../primitives/scan/encode-scan.js';
import { BufferUsage } from '../runtime/usage.js';
import { BUCKET_WORKGROUP_SIZE, CELL_SCATTER_KERNEL } from './bucket-kernels.js';
import type { HullStage } from './delaunay-hull-stage.js';
import type { DelaunayRun, GridStage } from './delaunay-run.js';
import { EXTREMES_WORKGROUP_SIZE, HULL_SCATTER_KERNEL } from './hull-kernels.js';
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
import { STAR_LANES_KERNEL } from './star-lanes-kernel.js';
import { laneCandidates, laneRings, laneShape } from './star-lanes-shape.js';
import { STAR_TAIL_KERNEL, STAR_TAIL_WORKGROUP_SIZE } from './star-tail-kernel.js';
import { initialTailCounts, TAIL_COUNTS_WORDS, tailCountsOffset } from './tail-counts.js';

/** Most rings the first pass inserts whole (its work grows with their square). */
const FIRST_PASS_MAX_RINGS = 8;

/** The main submission's encoder and buffers, cleared where the passes accumulate. */
export interface StarBuffers {
  encoder: GPUCommandEncoder;
  pass(name: string): GPUComputePassDescriptor | undefined;
  record(label: string, dispatches: PlannedDispatch[], passName: string): Promise<void>;
  hullNbr: GPUBuffer;
  cursor: GPUBuffer;
  cellSites: GPUBuffer;
  stars: GPUBuffer;
  starInfo: GPUBuffer;
  stats: GPUBuffer;
  tailList: GPUBuffer;
  tailCount: GPUBuffer;
  exactArgs: GPUBuffer;
  counts: GPUBuffer;
  /** Triangles expected (2n − 2 − h). */
  nt: number;
  triangles: GPUBuffer;
  halfedges: GPUBuffer;
}

/** Starts the main submission: its encoder and every buffer the star passes write. */
export function starBuffers(run: DelaunayRun, g: GridStage, hull: HullStage): StarBuffers {
  const { ctx, n, options, buffer, maxPerDimension } = run;
  const { cells } = g;
  const { h } = hull;
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
  // the tail counts and the indirect arguments of the passes they feed (see TAIL_COUNTS)
  const tailCount = ctx.device.createBuffer({
    label: 'delaunay tail count',
    size: 4 * TAIL_COUNTS_WORDS,
    usage: BufferUsage.STORAGE | BufferUsage.INDIRECT | BufferUsage.COPY_SRC,
    mappedAtCreation: true,
  });
  new Uint32Array(tailCount.getMappedRange()).set(initialTailCounts());
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
  return {
    encoder,
    pass,
    record,
    hullNbr,
    cursor,
    cellSites,
    stars,
    starInfo,
    stats,
    tailList,
    tailCount,
    exactArgs,
    counts,
    nt,
    triangles,
    halfedges,
  };
}

/**
 * Records the star passes into the main submission: the buckets, the first pass (by lanes, ties
 * on to the per-thread pass), the tail pass, the count, the scan, the emit and the twins.
 */
export async function recordStarPasses(
  run: DelaunayRun,
  g: GridStage,
  hull: HullStage,
  b: StarBuffers,
): Promise<void> {
  const { ctx, n, options, plan } = run;
  const { cells, cellStart, star, fixed } = g;
  const { h, triplesBuffer } = hull;
  const { encoder, record, hullNbr, cellSites, stars, starInfo, stats, tailList, tailCount, exactArgs } = b;
  await recordBuckets(run, g, hull, b);
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
  const shape = firstPassShape(
    options.firstPassCapacity ?? STAR_FIRST_CAPACITY,
    ctx.limits.maxComputeWorkgroupStorageSize,
  );
  const listBuffers = {
    sites: fixed,
    cell_start: cellStart,
    cell_sites: cellSites,
    hull_nbr: hullNbr,
    stars,
    star_info: starInfo,
    stats,
    hull_triples: triplesBuffer,
    tail_list: tailList,
    tail_count: tailCount,
  };
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
    encoder.copyBufferToBuffer(tailCount, tailCountsOffset('tiedArgs'), exactArgs, 0, 12);
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
    [{ ...tailPlan, indirect: { buffer: tailCount, offset: tailCountsOffset('tailArgs') } }],
    'stars tail',
  );
  await recordTriangles(run, b);
}

/** The hull sites' neighbours and the sites by bucket cell (the cells' counts scanned first). */
async function recordBuckets(run: DelaunayRun, g: GridStage, hull: HullStage, b: StarBuffers): Promise<void> {
  const { ctx, n, plan } = run;
  const { cells, cellStart, gridParams, cellOf } = g;
  const { h, triplesBuffer } = hull;
  const { encoder, record, hullNbr, cursor, cellSites } = b;
  await record(
    'delaunay/buckets',
    [
      plan(
        HULL_SCATTER_KERNEL,
        [h],
        { triples: triplesBuffer, hull_nbr: hullNbr },
        h,
        EXTREMES_WORKGROUP_SIZE,
      ),
    ],
    'hull + cell count',
  );
  await encodeScan(ctx, encoder, { input: cellStart, output: cellStart, count: cells + 1 });
  await record(
    'delaunay/cell-scatter',
    [
      plan(
        CELL_SCATTER_KERNEL,
        gridParams,
        { cell_of: cellOf, cell_start: cellStart, cursor, cell_sites: cellSites },
        n,
        BUCKET_WORKGROUP_SIZE,
      ),
    ],
    'cell scatter',
  );
}

/** The final stars' triangles: counted, scanned, emitted, and their half-edge twins. */
async function recordTriangles(run: DelaunayRun, b: StarBuffers): Promise<void> {
  const { ctx, n, plan } = run;
  const { encoder, pass, record, stars, starInfo, stats, counts, nt, triangles, halfedges } = b;
  await record(
    'delaunay/star-count',
    [plan(STAR_COUNT_KERNEL, [n], { stars, star_info: starInfo, counts, stats }, n, STAR_WORKGROUP_SIZE)],
    'star count',
  );
  await encodeScan(ctx, encoder, { input: counts, output: counts, count: n + 1 });
  await record(
    'delaunay/star-emit',
    [
      plan(
        STAR_EMIT_KERNEL,
        [n],
        { stars, star_info: starInfo, offsets: counts, triangles },
        n,
        STAR_WORKGROUP_SIZE,
      ),
    ],
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
}
