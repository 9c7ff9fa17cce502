import { encodeScan } from '../primitives/scan/encode-scan.js';
import { scratchBuffer } from '../primitives/scratch.js';
import { alignBufferSize, createBufferChecked } from '../runtime/buffers.js';
import { remapUploads, submitForRead, uploadParts } from '../runtime/staging.js';
import { DevicePolygons, RESIDENT_USAGE, residentRun } from './device-polygons.js';
import { COPY_PICKED_KERNEL, PICKED_LENGTHS_KERNEL } from './gather-kernels.js';
import { recordResident, residentDispatch } from './resident-measures.js';

/**
 * The rows at `picks`, in that order (repeats allowed), as new device-resident polygons: the
 * picks go up (4 bytes a row), their point counts are scanned on the device, the total comes
 * back (4 bytes: it sizes the new buffers), and the rings are copied on the device. The source
 * is left as it is. Indices must be in `0 .. rows − 1` (checked by the caller).
 */
export function residentTake(polygons: DevicePolygons, picks: Uint32Array): Promise<DevicePolygons> {
  const { ctx } = polygons;
  const n = picks.length;
  return polygons.use((source) =>
    residentRun(ctx, 'resident take', Math.max(n, polygons.points), async () => {
      const picked = scratchBuffer(ctx, 'resident/picks', 4 * Math.max(1, n));
      const lengths = scratchBuffer(ctx, 'resident/picked-lengths', 4 * (n + 1));
      const count = await recordResident(ctx, 'resident/picked-lengths', []);
      await uploadParts(ctx, count, 'resident/picks', [{ data: picks, target: picked }]);
      count.clearBuffer(lengths, 4 * n, 4);
      const lengthPass = await recordResident(ctx, 'resident/picked-lengths', [
        residentDispatch(PICKED_LENGTHS_KERNEL, [n], n, { offsets: source.offsets, picks: picked, lengths }),
      ]);
      await encodeScan(ctx, lengthPass, { input: lengths, output: lengths, count: n + 1 });
      ctx.device.queue.submit([count.finish()]);
      const total = new Uint32Array(1);
      const pending = await submitForRead(ctx, lengthPass, 'resident/picked-total', [
        { source: lengths, sourceOffset: 4 * n, bytes: 4 },
      ]);
      remapUploads(ctx, 'resident/picks');
      await pending.into([total]);
      const points = total[0];
      const coords = await createBufferChecked(ctx, {
        label: 'resident coords (taken)',
        size: alignBufferSize(16 * points),
        usage: RESIDENT_USAGE,
      });
      const offsets = await createBufferChecked(ctx, {
        label: 'resident ring offsets (taken)',
        size: alignBufferSize(4 * (n + 1)),
        usage: RESIDENT_USAGE,
      });
      const copy = await recordResident(ctx, 'resident/copy-picked', [
        residentDispatch(COPY_PICKED_KERNEL, [n], n, {
          offsets: source.offsets,
          coords: source.coords,
          picks: picked,
          placed: lengths,
          out: coords,
        }),
      ]);
      copy.copyBufferToBuffer(lengths, 0, offsets, 0, 4 * (n + 1));
      ctx.device.queue.submit([copy.finish()]);
      return new DevicePolygons(ctx, { coords, offsets }, n, points);
    }),
  );
}
