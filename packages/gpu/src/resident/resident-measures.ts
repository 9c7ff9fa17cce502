import { type PlannedDispatch, recordDispatches } from '../primitives/dispatch-recorder.js';
import { scratchBuffer } from '../primitives/scratch.js';
import { DEFAULT_MAX_WORKGROUPS_PER_DIMENSION } from '../runtime/dispatch.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import { type BindingLayout, type BoundBuffers, bindingEntries } from '../runtime/kernel-bindings.js';
import { type KernelConstants, kernelUse, type NamedKernel } from '../runtime/pipeline-cache.js';
import { submitForRead } from '../runtime/staging.js';
import { type DevicePolygons, residentRun } from './device-polygons.js';
import {
  RESIDENT_WORKGROUP_SIZE,
  RING_AREA_KERNEL,
  RING_BOUNDS_KERNEL,
  TOTAL_BOUNDS_CHUNK,
  TOTAL_BOUNDS_KERNEL,
} from './measure-kernels.js';

/**
 * A measure computed on the device, or `null` when some row could not be answered exactly there
 * (`declined` of them: coordinates too far apart in magnitude for 61 bits, NaN, an area past
 * f64's normal range); the caller then answers on the host copy.
 */
export type ResidentMeasure<T> = { values: T; seconds: number } | null;

/** One dispatch of `kernel` over `items` threads, binding `buffers` by name. */
export function residentDispatch<L extends BindingLayout>(
  kernel: NamedKernel<KernelConstants, L>,
  params: number[],
  items: number,
  buffers: BoundBuffers<L>,
): PlannedDispatch {
  return {
    kernel: kernelUse(kernel),
    params,
    entries: bindingEntries(kernel.bindings, buffers),
    workgroups: Math.ceil(items / RESIDENT_WORKGROUP_SIZE),
  };
}

/** Records `dispatches` into a new encoder. */
export async function recordResident(
  ctx: GpuContext,
  label: string,
  dispatches: PlannedDispatch[],
  cleared: GPUBuffer[] = [],
): Promise<GPUCommandEncoder> {
  const encoder = ctx.device.createCommandEncoder({ label });
  for (const buffer of cleared) encoder.clearBuffer(buffer);
  const perDimension = Math.min(
    DEFAULT_MAX_WORKGROUPS_PER_DIMENSION,
    ctx.limits.maxComputeWorkgroupsPerDimension,
  );
  await recordDispatches(ctx, encoder, label, dispatches, perDimension);
  return encoder;
}

/**
 * A per-row kernel over the rings writing `wordsPerRow` u32 a row plus a `declined` count, read
 * back in one mapping; null when any row was declined.
 */
async function perRow(
  polygons: DevicePolygons,
  kernel: { name: string },
  wordsPerRow: number,
  dispatch: (
    input: { offsets: GPUBuffer; coords: GPUBuffer },
    out: GPUBuffer,
    declined: GPUBuffer,
  ) => PlannedDispatch,
): Promise<Float64Array | null> {
  const { ctx, rows } = polygons;
  return polygons.use((buffers) =>
    residentRun(ctx, kernel.name, Math.max(rows, polygons.points), async () => {
      const out = scratchBuffer(ctx, `${kernel.name}/out`, 4 * wordsPerRow * Math.max(1, rows));
      const declined = scratchBuffer(ctx, 'resident/declined', 4);
      const encoder = await recordResident(ctx, kernel.name, [dispatch(buffers, out, declined)], [declined]);
      const values = new Float64Array((wordsPerRow / 2) * rows);
      const pending = await submitForRead(ctx, encoder, kernel.name, [
        { source: declined, bytes: 4 },
        { source: out, bytes: values.byteLength },
      ]);
      const { value } = await pending.read((range, offsets) => {
        if (new Uint32Array(range, offsets[0], 1)[0] !== 0) return null;
        values.set(new Float64Array(range, offsets[1], values.length));
        return values;
      });
      return value;
    }),
  );
}

/**
 * The area of each row (single-ring polygons), exact and rounded once on the device (see
 * `RING_AREA_KERNEL`); null when a row could not be answered there.
 */
export function residentArea(polygons: DevicePolygons): Promise<Float64Array | null> {
  const { rows } = polygons;
  return perRow(polygons, RING_AREA_KERNEL, 2, ({ offsets, coords }, area, declined) =>
    residentDispatch(RING_AREA_KERNEL, [rows], rows, { offsets, coords, area, declined }),
  );
}

/**
 * Each row's bounds, `[minx, miny, maxx, maxy]` at `4 * row` (NaN for an empty row), exact;
 * null when a coordinate is NaN.
 */
export function residentBounds(polygons: DevicePolygons): Promise<Float64Array | null> {
  const { rows } = polygons;
  return perRow(polygons, RING_BOUNDS_KERNEL, 8, ({ offsets, coords }, bounds, declined) =>
    residentDispatch(RING_BOUNDS_KERNEL, [rows], rows, { offsets, coords, bounds, declined }),
  );
}

/**
 * The bounds of all rows, `[minx, miny, maxx, maxy]` (four NaN without a point): chunks of
 * {@link TOTAL_BOUNDS_CHUNK} points reduced on the device, the chunks' extremes on the host.
 */
export function residentTotalBounds(polygons: DevicePolygons): Promise<[number, number, number, number]> {
  const { ctx, points } = polygons;
  return polygons.use((buffers) =>
    residentRun(ctx, 'resident total bounds', points, async () => {
      const result: [number, number, number, number] = [Number.NaN, Number.NaN, Number.NaN, Number.NaN];
      if (points === 0) return result;
      const chunks = Math.ceil(points / TOTAL_BOUNDS_CHUNK);
      const out = scratchBuffer(ctx, 'resident/total-bounds', 32 * chunks);
      const encoder = await recordResident(ctx, 'resident/total-bounds', [
        residentDispatch(TOTAL_BOUNDS_KERNEL, [0, points], chunks, { coords: buffers.coords, chunks: out }),
      ]);
      const pending = await submitForRead(ctx, encoder, 'resident/total-bounds', [
        { source: out, bytes: 32 * chunks },
      ]);
      const extremes = new Float64Array(4 * chunks);
      await pending.into([extremes]);
      let [minx, miny, maxx, maxy] = [extremes[0], extremes[1], extremes[2], extremes[3]];
      for (let c = 1; c < chunks; c++) {
        minx = Math.min(minx, extremes[4 * c]);
        miny = Math.min(miny, extremes[4 * c + 1]);
        maxx = Math.max(maxx, extremes[4 * c + 2]);
        maxy = Math.max(maxy, extremes[4 * c + 3]);
      }
      return [minx, miny, maxx, maxy];
    }),
  );
}
