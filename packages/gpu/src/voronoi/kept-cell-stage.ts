import { DevicePolygons, RESIDENT_USAGE } from '../resident/device-polygons.js';
import { throwOnFault } from '../runtime/kernel-fault.js';
import { remapUploads, submitForRead } from '../runtime/staging.js';
import { recordCellRings, recordEmit } from './cell-stage.js';
import type { Front, PipelineRun } from './pipeline-run.js';
import { cellsOutputPoints } from './voronoi-options.js';

/**
 * Stages 4–5 with the cells kept on the device (adr/0032): the emit writes into the pipeline's
 * reused output buffer, sized by the guess; the total and the fault word come back (8 bytes), and
 * the coordinates are copied on the device into a buffer of the exact size that the result owns
 * (emitted again there when the guess was short). Nothing else crosses to the host.
 */
export async function keptCellsStage(run: PipelineRun, front: Front): Promise<DevicePolygons> {
  const { ctx } = run;
  const { n } = front;
  const { ring, ringInfo, slots, lengths, faults, ringEncoder } = await recordCellRings(run, front, false);
  const planned = cellsOutputPoints(n); // no array: the cells stay on the device
  const guess = Math.max(1, Math.min(run.options.outputGuess ?? planned, planned));
  run.checkFits('kept coords', 16 * guess);
  const owned = (bytes: number, label: string) =>
    ctx.device.createBuffer({ label, size: Math.max(16, bytes), usage: RESIDENT_USAGE });
  const offsets = owned(4 * (n + 1), 'voronoi kept ring offsets');
  const emitted = run.buffer('coords', 16 * guess);
  await recordEmit(run, ringEncoder, front, ring, ringInfo, slots, lengths, emitted);
  ringEncoder.copyBufferToBuffer(lengths, 0, offsets, 0, 4 * (n + 1));
  const words = new Uint32Array(2);
  const pending = await submitForRead(ctx, ringEncoder, 'voronoi/kept-total', [
    { source: lengths, sourceOffset: 4 * n, bytes: 4 },
    { source: faults, bytes: 4 },
  ]);
  remapUploads(ctx, 'voronoi/input');
  run.lap('gpu: cells and emit submitted');
  await pending.into([words.subarray(0, 1), words.subarray(1, 2)]);
  throwOnFault(words[1], 'voronoi cells');
  const points = words[0];
  run.lap('total back');
  run.stats.bytesDown += 8;
  run.checkFits('kept coords', 16 * points);
  const coords = owned(16 * points, 'voronoi kept coords');
  const finish = ctx.device.createCommandEncoder({ label: 'voronoi/kept' });
  if (points > guess) {
    // rings past the guess were skipped: emitted again, every one, at the exact size
    await recordEmit(run, finish, front, ring, ringInfo, slots, lengths, coords, true);
  } else if (points > 0) {
    finish.copyBufferToBuffer(emitted, 0, coords, 0, 16 * points);
  }
  ctx.device.queue.submit([finish.finish()]);
  run.scope?.close();
  return new DevicePolygons(ctx, { coords, offsets }, n, points);
}
