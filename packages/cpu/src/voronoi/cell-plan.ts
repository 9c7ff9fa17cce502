import type { Box } from '@geoframe/core';
import { nextHalfedge, type PolygonBuffers } from '../delaunay/buffers.js';
import { EDGE_COCIRCULAR } from '../delaunay/lawson-repair.js';
import type { RobustTriangulation } from '../delaunay/triangulate.js';
import { WorkMeter } from '../workers/work-meter.js';
import { runRanges, toShared } from '../workers/worker-pool.js';
import { CellRingWriter, closeRing } from './cell-ring-writer.js';
import { walkCell } from './cell-walk.js';
import { circumcenters } from './circumcenters.js';
import { inBox } from './clip-edge.js';
import { writeSimpleRings } from './simple-rings.js';

/*
 * The planning passes of the cell writer (`walkCells` in voronoi-cells.ts): per site its walk
 * start, ring length and place, the side-buffer cells, and what the write pass left to finish.
 */

/** Pass 1 of the cell plan: walk starts, degrees (-1: not simple), centres inside the box. */
export interface CellWalks {
  start: Int32Array;
  length: Int32Array;
  inside: Uint8Array;
}

/**
 * Pass 1 of {@link planCells} on `threads` threads (`planDegrees`, then `planBoundary`): the same
 * starts, lengths and inside flags.
 */
export async function planWalksParallel(
  n: number,
  box: Box,
  triangles: Uint32Array,
  halfedges: Int32Array,
  tri: RobustTriangulation,
  cc: Float64Array,
  threads: number,
): Promise<CellWalks> {
  const start = new Int32Array(new SharedArrayBuffer(4 * n)).fill(-1);
  const length = new Int32Array(new SharedArrayBuffer(4 * n));
  const nt = triangles.length / 3;
  const inside = new Uint8Array(new SharedArrayBuffer(nt));
  await runRanges('planDegrees', triangles.length, threads, [
    triangles,
    toShared(tri.edgeState),
    tri.cocircularEdges > 0 ? 1 : 0,
    start,
    length,
  ]);
  const bounds = Float64Array.of(box.minX, box.minY, box.maxX, box.maxY);
  await runRanges('planBoundary', nt, threads, [triangles, halfedges, cc, bounds, inside, start, length]);
  return { start, length, inside };
}

/** What the planning passes leave for the write pass (see {@link walkCells}). */
export interface CellPlan {
  /** Per site k: its walk start; -1 once its cell is in `coords` (side-buffer cells). */
  start: Int32Array;
  /** Per site k: the point index its ring starts at in `coords`. */
  place: Int32Array;
  /** Per site k: its planned ring length (the write pass records differences here). */
  length: Int32Array;
  cc: Float64Array;
  coords: Float64Array;
  ringOffsets: Int32Array;
  longest: number;
  order: Uint32Array | null;
}

/**
 * Passes 1 and 2 of {@link walkCells}, and the copy of the side-buffer cells to their places.
 * `shared`: every array the write pass touches lies on a SharedArrayBuffer. `cc`: the
 * circumcentres when already computed (see `circumcentersParallel`). `meter` hears the passes
 * 'circumcentres' and 'walks' (those not done before) and 'plan'.
 */
export function planCells(
  sites: Float64Array,
  box: Box,
  tri: RobustTriangulation,
  order: Uint32Array | null,
  general: boolean,
  shared: boolean,
  computed: Float64Array | null = null,
  walks: CellWalks | null = null,
  meter = WorkMeter.SILENT,
): CellPlan {
  const n = sites.length >> 1;
  const { triangles, halfedges } = tri;
  if (computed === null) meter.pass('circumcentres');
  const cc =
    computed ??
    circumcenters(sites, tri.frame, triangles, halfedges, tri.edgeState, tri.cocircularEdges, shared);
  const int32s = (count: number) =>
    shared ? new Int32Array(new SharedArrayBuffer(4 * count)) : new Int32Array(count);

  // pass 1: walk starts (see walkCell), degrees, simple or not (length -1 marks "not simple")
  if (walks === null) meter.pass('walks');
  const { start, length, inside } = walks ?? planWalks(n, box, tri, cc, int32s);
  meter.pass('plan');
  if (general) length.fill(-1);
  let others = 0;
  let longest = 0;
  for (let i = 0; i < n; i++) {
    if (length[i] < 0) others++;
    else if (length[i] > longest) longest = length[i];
  }
  const side = new CellRingWriter(box, others, 16 * others + 64);
  const sideRing = new Int32Array(others);
  for (let i = 0, r = 0; i < n; i++) {
    if (length[i] >= 0) {
      // closed ring; a ring of one point (all centres equal) is closed too
      length[i] = Math.max(length[i], 1) + 1;
      continue;
    }
    walkCell(side, sites, i, start[i], triangles, halfedges, cc, inside);
    sideRing[r++] = i;
  }
  const sideCells = side.finish();
  for (let r = 0; r < others; r++) {
    length[sideRing[r]] = sideCells.ringOffsets[r + 1] - sideCells.ringOffsets[r];
  }

  // pass 2: ring offsets in the caller's order
  const ringOffsets = new Int32Array(n + 1);
  if (order === null) for (let i = 0; i < n; i++) ringOffsets[i + 1] = length[i];
  else for (let k = 0; k < n; k++) ringOffsets[order[k] + 1] = length[k];
  for (let i = 0; i < n; i++) ringOffsets[i + 1] += ringOffsets[i];
  const size = 2 * ringOffsets[n];
  const coords = shared ? new Float64Array(new SharedArrayBuffer(8 * size)) : new Float64Array(size);
  // each ring's place, gathered in a tight loop of independent loads (in the write pass each
  // would be a cache miss that the ring's stores wait on)
  const place = int32s(n);
  if (order === null) place.set(ringOffsets.subarray(0, n));
  else for (let k = 0; k < n; k++) place[k] = ringOffsets[order[k]];

  // the side-buffer cells go to their places now; the write pass skips them (start -1)
  for (let r = 0; r < others; r++) {
    const k = sideRing[r];
    coords.set(
      sideCells.coords.subarray(2 * sideCells.ringOffsets[r], 2 * sideCells.ringOffsets[r + 1]),
      2 * place[k],
    );
    start[k] = -1;
  }
  return { start, place, length, cc, coords, ringOffsets, longest, order };
}

/** Pass 1 of {@link planCells} on this thread (see `planDegrees` and `planBoundary`, its parallel twin). */
function planWalks(
  n: number,
  box: Box,
  tri: RobustTriangulation,
  cc: Float64Array,
  int32s: (count: number) => Int32Array,
): CellWalks {
  const { triangles, halfedges, edgeState } = tri;
  const nt = triangles.length / 3;
  const inside = new Uint8Array(nt);
  const start = int32s(n).fill(-1);
  const length = int32s(n);
  const merged = tri.cocircularEdges > 0;
  for (let e = 0; e < triangles.length; e++) {
    const i = triangles[e];
    if (start[i] === -1) start[i] = e;
    // across a cocircular edge both triangles have the same (merged) centre: written once
    if (!merged || edgeState[e] !== EDGE_COCIRCULAR) length[i]++;
  }
  for (let t = 0; t < nt; t++) {
    // each centre is tested once, so every cell around it agrees
    if (inBox(box, cc[2 * t], cc[2 * t + 1])) {
      inside[t] = 1;
      continue;
    }
    length[triangles[3 * t]] = -1;
    length[triangles[3 * t + 1]] = -1;
    length[triangles[3 * t + 2]] = -1;
  }
  for (let e = 0; e < triangles.length; e++) {
    if (halfedges[e] !== -1) continue;
    const f = nextHalfedge(e);
    start[triangles[f]] = f;
    length[triangles[e]] = -1;
    length[triangles[f]] = -1;
  }
  return { start, length, inside };
}

/**
 * After the write pass ({@link writeSimpleRings}, `changed` sites reported): redoes with the exact
 * predicate the rings it left undecided, and closes the gaps of rings that came out shorter than
 * planned.
 */
export function finishCells(plan: CellPlan, tri: RobustTriangulation, changed: number): PolygonBuffers {
  const { coords, ringOffsets, order, length, place } = plan;
  if (changed === 0) return { coords, ringOffsets };
  const n = length.length;
  const { halfedges } = tri;
  let short: number[] | null = null;
  let ring: Float64Array | null = null;
  for (let k = 0; k < n; k++) {
    const i = order === null ? k : order[k];
    const want = ringOffsets[i + 1] - ringOffsets[i];
    let got = length[k];
    if (got === -1) {
      // the float filter could not decide a turn: this ring again, with the exact predicate
      ring ??= new Float64Array(2 * (plan.longest + 2));
      const e0 = plan.start[k];
      let e = e0;
      let m = 0;
      do {
        const t = (e / 3) | 0;
        const x = plan.cc[2 * t];
        const y = plan.cc[2 * t + 1];
        if (m === 0 || ring[2 * m - 2] !== x || ring[2 * m - 1] !== y) {
          ring[2 * m] = x;
          ring[2 * m + 1] = y;
          m++;
        }
        e = nextHalfedge(halfedges[e]);
      } while (e !== e0);
      got = closeRing(ring, 0, m);
      coords.set(ring.subarray(0, 2 * got), 2 * place[k]);
    }
    if (got !== want) {
      short ??= [];
      short.push(i, got);
    }
  }
  return short === null ? { coords, ringOffsets } : closeGaps(coords, ringOffsets, short);
}

/**
 * Moves rings left over the unused tails of rings that came out shorter than their planned
 * length (`short`: pairs of ring index and actual length), fixing the offsets; one front-to-back
 * pass, the destination never after the source.
 */
function closeGaps(coords: Float64Array, ringOffsets: Int32Array, short: number[]): PolygonBuffers {
  const n = ringOffsets.length - 1;
  const actual = new Int32Array(n);
  for (let i = 0; i < n; i++) actual[i] = ringOffsets[i + 1] - ringOffsets[i];
  for (let p = 0; p < short.length; p += 2) actual[short[p]] = short[p + 1];
  let to = 0;
  for (let i = 0; i < n; i++) {
    const from = ringOffsets[i];
    if (from !== to) coords.copyWithin(2 * to, 2 * from, 2 * (from + actual[i]));
    ringOffsets[i] = to;
    to += actual[i];
  }
  ringOffsets[n] = to;
  return { coords: coords.slice(0, 2 * to), ringOffsets };
}
