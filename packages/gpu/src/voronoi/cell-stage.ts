import type { PolygonBuffers } from '../delaunay/delaunay-stage.js';
import { recordDispatches } from '../primitives/dispatch-recorder.js';
import { encodeScan } from '../primitives/scan/encode-scan.js';
import { createFaultBuffer, throwOnFault } from '../runtime/kernel-fault.js';
import { remapUploads, submitAndRead, submitForRead } from '../runtime/staging.js';
import { EMIT_RINGS_KERNEL, RING_LENGTHS_KERNEL } from './cells/emit-kernels.js';
import { RING_KERNEL } from './cells/ring-kernel.js';
import { HULL_START_KERNEL, PLAN_CELLS_KERNEL, WALK_START_KERNEL } from './cells/walk-kernels.js';
import { indexedCells, indexedFits } from './indexed-cell-stage.js';
import type { Front, PipelineRun } from './pipeline-run.js';
import { cellsOutput, outputArray } from './voronoi-options.js';

/** What stage 4 leaves for the emit: the rings in scratch slots and their scanned lengths. */
export interface CellRings {
  ring: GPUBuffer;
  /** The walks' starts and the cells' kinds (the indexed emit matches simple rings to their fans). */
  start: GPUBuffer;
  kind: GPUBuffer;
  ringInfo: GPUBuffer;
  slots: GPUBuffer;
  lengths: GPUBuffer;
  faults: GPUBuffer;
  /** The encoder the rings are recorded in (the front's, or a second after a slot-total read). */
  ringEncoder: GPUCommandEncoder;
  /** Output points the first emit is sized for, and the output array being prepared for them
   *  (none when the cells stay on the device). */
  guess: number;
  early: Promise<Float64Array> | null;
  /** The indexed emit's staging array being prepared (see `CellsOutput.staging`). */
  staging: Promise<Float64Array> | null;
}

/** Stage 4: the walk starts, the cell plan, the slots' scan, the rings and their lengths' scan. */
export async function recordCellRings(run: PipelineRun, front: Front, forHost = true): Promise<CellRings> {
  const { ctx } = run;
  const { n, nt, encoder } = front;
  const nh = 3 * nt;
  // The output array is prepared (its pages mapped by worker threads) while the GPU works, for
  // a point count guessed from the triangulation: a cell inside the box has degree + 1 points
  // (fewer where centres merge), so the half-edges plus the sites, plus room for the clipped
  // cells along the box, which are O(√n). A larger actual count prepares a new array at the end.
  const output = forHost
    ? (front.output ?? cellsOutput(n, run.options.cpu, run.options.emit === 'indexed'))
    : null;
  const guess = output ? Math.min(run.options.outputGuess ?? output.points, output.points) : 0;
  const early = output ? output.array : null;
  const start = run.buffer('start', 4 * n);
  const kind = run.buffer('kind', 4 * n);
  const slots = run.buffer('slots', 4 * (n + 1));
  const ringInfo = run.buffer('ring-info', 8 * n);
  const lengths = run.buffer('lengths', 4 * (n + 1));
  const faults = createFaultBuffer(ctx, 'voronoi/cells');
  encoder.clearBuffer(start, 0, 4 * n);
  encoder.clearBuffer(slots, 4 * n, 4);
  encoder.clearBuffer(lengths, 4 * n, 4);

  await run.record(encoder, 'walk starts', [
    run.dispatch(WALK_START_KERNEL, nh, { triangles: front.triangles, start }),
    run.dispatch(HULL_START_KERNEL, nh, { triangles: front.triangles, halfedges: front.halfedges, start }),
  ]);
  await run.record(encoder, 'plan cells', [
    run.dispatch(PLAN_CELLS_KERNEL, n, {
      halfedges: front.halfedges,
      start,
      ccFlags: front.ccFlags,
      kind,
      slots,
      fault_flags: faults,
    }),
  ]);
  await encodeScan(ctx, encoder, { input: slots, output: slots, count: n + 1 });
  // the scratch ring is sized by the slots' total (about 6 points a site), read back first
  // the scratch ring holds at most 2·degree + 8 points a site, and the degrees sum to the
  // half-edge count; where that bound exceeds one binding (about 6M sites), the actual slot
  // total comes back first (one more round trip) to size it
  const bound = 16 * (2 * nh + 8 * n);
  let ringBytes = bound;
  let ringEncoder = encoder;
  if (bound > ctx.limits.maxStorageBufferBindingSize) {
    const slotTotal = new Uint32Array(1);
    await submitAndRead(ctx, encoder, 'voronoi/slot-total', [
      { source: slots, sourceOffset: 4 * n, target: slotTotal },
    ]);
    remapUploads(ctx, 'voronoi/input');
    run.lap('gpu: grid, twins, circumcentres, plan');
    ringBytes = 16 * Math.max(1, slotTotal[0]);
    ringEncoder = ctx.device.createCommandEncoder({ label: 'voronoi/rings' });
  }
  const ring = run.buffer('ring', ringBytes);
  const rings = run.dispatch(RING_KERNEL, n, {
    sites: front.sites,
    triangles: front.triangles,
    halfedges: front.halfedges,
    start,
    kind,
    cc: front.cc,
    ccFlags: front.ccFlags,
    slotOffset: slots,
    ring,
    ringInfo,
    grid_uniforms: front.gridUniform,
  });
  const ringLengths = run.dispatch(RING_LENGTHS_KERNEL, n, {
    ringInfo,
    order: front.order,
    lengths,
    fault_flags: faults,
    ring,
    slotOffset: slots,
    grid_uniforms: front.gridUniform,
  });
  ringLengths.params = [n, run.options.keepRepeats ? 1 : 0];
  await run.record(ringEncoder, 'rings', [rings, ringLengths]);
  await encodeScan(ctx, ringEncoder, { input: lengths, output: lengths, count: n + 1 });
  const staging = output?.staging ?? null;
  return { ring, start, kind, ringInfo, slots, lengths, faults, ringEncoder, guess, early, staging };
}

/** Stages 4–5 for cells. */
export async function cellsStage(run: PipelineRun, front: Front): Promise<PolygonBuffers> {
  const { ctx } = run;
  const { n } = front;
  const cellRings = await recordCellRings(run, front);
  const { ring, ringInfo, slots, lengths, faults, ringEncoder, guess } = cellRings;
  const early = cellRings.early as Promise<Float64Array>;
  // on shared memory where there is one, as the coordinates' array: the host's passes over the
  // rings (repeated points, the output check) read both on worker threads without a copy
  const ringOffsets =
    typeof SharedArrayBuffer === 'undefined'
      ? new Int32Array(n + 1)
      : new Int32Array(new SharedArrayBuffer(4 * (n + 1)));
  // the output is emitted in the same submission into a buffer sized by the guess, so the ring
  // offsets and the coordinates come back in one round trip; rings past it (a guess too small)
  // are skipped by the kernel and emitted again at the exact size
  const guessed = 16 * guess <= ctx.limits.maxStorageBufferBindingSize;
  const indexed = run.options.emit === 'indexed' && indexedFits(run, front, guess);
  if (indexed) {
    const cells = await indexedCells(run, front, cellRings, ringOffsets);
    if (cells !== null) return cells;
  } else if (guessed) {
    const out = run.buffer('coords', 16 * guess);
    await recordEmit(run, ringEncoder, front, ring, ringInfo, slots, lengths, out);
    const pending = await submitForRead(ctx, ringEncoder, 'voronoi/cells-out', [
      { source: lengths, bytes: 4 * (n + 1) },
      { source: out, bytes: 16 * guess },
      { source: faults, bytes: 4 },
    ]);
    // the last device call unless the output outgrows the guess: the scope's verdict is on its
    // way while the GPU builds the cells
    run.scope?.close();
    remapUploads(ctx, 'voronoi/input');
    const prepared = await early;
    run.lap('gpu: cells and emit submitted, output prepared');
    const { value: coords, copyMs } = await pending.read(async (range, offsets) => {
      throwOnFault(new Uint32Array(range, offsets[2], 1)[0], 'voronoi cells');
      ringOffsets.set(new Int32Array(range, offsets[0], n + 1));
      const points = ringOffsets[n];
      if (points > guess) return null;
      const coords = prepared.subarray(0, 2 * points);
      const source = new Float64Array(range, offsets[1], 2 * points);
      const copy = run.options.cpu?.copyRings;
      if (copy) await copy(source, coords, ringOffsets);
      else coords.set(source);
      return coords;
    });
    run.stats.bytesDown += ringOffsets.byteLength;
    if (coords !== null) {
      run.stats.bytesDown += coords.byteLength;
      run.lap('offsets and coordinates back');
      run.stats.stages.push({ stage: '(of which copy out)', ms: copyMs });
      return { coords, ringOffsets };
    }
    run.lap('offsets back (output larger than guessed)');
  } else {
    const faultWord = new Uint32Array(1);
    await submitAndRead(ctx, ringEncoder, 'voronoi/ring-offsets', [
      { source: lengths, target: ringOffsets },
      { source: faults, target: faultWord },
    ]);
    throwOnFault(faultWord[0], 'voronoi cells');
    remapUploads(ctx, 'voronoi/input');
    run.stats.bytesDown += ringOffsets.byteLength;
    run.lap('gpu: cells, offsets back');
  }

  const points = ringOffsets[n];
  run.scope?.reopen();
  const out = run.buffer('coords', 16 * points);
  const emit = ctx.device.createCommandEncoder({ label: 'voronoi/emit' });
  await recordEmit(run, emit, front, ring, ringInfo, slots, lengths, out, guessed || indexed);
  const pending = await submitForRead(ctx, emit, 'voronoi/coords', [{ source: out, bytes: 16 * points }]);
  // a fresh 100 MB array faulted in by the one copy into it would cost more than the copy
  const prepared = await early;
  const coords =
    points <= guess ? prepared.subarray(0, 2 * points) : await outputArray(run.options.cpu, 2 * points);
  run.lap('emit submitted, output prepared');
  const { copyMs } = await pending.into([coords]);
  run.stats.bytesDown += coords.byteLength;
  run.lap('coordinates back');
  run.stats.stages.push({ stage: '(of which copy out)', ms: copyMs });
  return { coords, ringOffsets };
}

/**
 * Records the emit pass (rings rotated, converted to f64, closed, at their offsets) into
 * `encoder`, timed and closing the profiler's round unless `again` (an emit after the round).
 */
export async function recordEmit(
  run: PipelineRun,
  encoder: GPUCommandEncoder,
  front: Front,
  ring: GPUBuffer,
  ringInfo: GPUBuffer,
  slots: GPUBuffer,
  lengths: GPUBuffer,
  out: GPUBuffer,
  again = false,
): Promise<void> {
  const emit = run.dispatch(EMIT_RINGS_KERNEL, front.n, {
    ring,
    ringInfo,
    slotOffset: slots,
    order: front.order,
    ringOffsets: lengths,
    coords: out,
    grid_uniforms: front.gridUniform,
  });
  emit.params = [front.n, run.options.keepRepeats ? 1 : 0];
  const dispatches = [emit];
  if (again) {
    await recordDispatches(run.ctx, encoder, 'voronoi/emit', dispatches, run.maxPerDimension, {
      label: 'voronoi/emit',
    });
    return;
  }
  await run.record(encoder, 'emit', dispatches);
  run.options.profiler?.resolve(encoder);
}
