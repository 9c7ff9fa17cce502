import { toGrid } from '../exact/fixed-grid.js';
import { encodeCompact } from '../primitives/compact/compact.js';
import { type PlannedDispatch, recordDispatches } from '../primitives/dispatch-recorder.js';
import { readback } from '../runtime/buffers.js';
import { submitForRead } from '../runtime/staging.js';
import { type DelaunayRun, fromWords, type GridStage } from './delaunay-run.js';
import { checkClusters } from './guard.js';
import { GUARD_HEADER_WORDS } from './guard-kernel.js';
import { hullOfCandidates } from './hull-chain.js';
import {
  EXTREMES_ITEMS,
  EXTREMES_KERNEL,
  EXTREMES_WORKGROUP_SIZE,
  HULL_GATHER_KERNEL,
  OCTAGON_FILTER_KERNEL,
} from './hull-kernels.js';

/** Hull survivors read back with their count (more take a second readback). */
const HULL_READ = 8192;

/** The convex hull, on the device as (site, previous, next) triples, and the round trip's times. */
export interface HullStage {
  /** Hull candidates (octagon survivors). */
  m: number;
  /** Hull vertices. */
  h: number;
  triplesBuffer: GPUBuffer;
  hullStart: number;
  hullMs: number;
}

/**
 * The hull round trip: 8 extremes, the octagon filter and compaction on the device, the survivors
 * read back, the monotone chain here, the hull's triples written back. Null when there is no
 * triangle (all sites collinear).
 */
export async function hullStage(run: DelaunayRun, g: GridStage): Promise<HullStage | null> {
  const { ctx, sites, n, plan, buffer, maxPerDimension, given, orderOf } = run;
  const { first, fixed, guardOut, upload, clusterLimit, grid } = g;
  // hull candidates: 8 extremes, octagon filter, compaction
  const hullStart = performance.now();
  const chunk = EXTREMES_WORKGROUP_SIZE * EXTREMES_ITEMS;
  let groups = Math.ceil(n / chunk);
  let from = buffer('extremes-a', 32 * groups);
  let to = buffer('extremes-b', 32 * groups);
  const extremePlans: PlannedDispatch[] = [];
  extremePlans.push({
    ...plan(EXTREMES_KERNEL, [n, 0], { sites: fixed, candidates: fixed, out: from }, 1, 1),
    workgroups: groups,
  });
  while (groups > 1) {
    const items = 8 * groups;
    groups = Math.ceil(items / chunk);
    extremePlans.push({
      ...plan(EXTREMES_KERNEL, [items, 1], { sites: fixed, candidates: from, out: to }, 1, 1),
      workgroups: groups,
    });
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
    [plan(OCTAGON_FILTER_KERNEL, [n], { sites: fixed, extremes: from, flags }, n, EXTREMES_WORKGROUP_SIZE)],
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
        { fixed, candidates, candidate_count: candidateCount, out: headGrid },
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

  return { m, h, triplesBuffer, hullStart, hullMs };
}
