import type { LineBuffers } from '../delaunay/delaunay-stage.js';
import { encodeScan } from '../primitives/scan/encode-scan.js';
import { remapUploads, submitAndRead } from '../runtime/staging.js';
import { CLIP_EDGES_KERNEL, EMIT_EDGES_KERNEL } from './edges/edge-kernels.js';

import type { Front, PipelineRun } from './pipeline-run.js';

/** Stages 4–5 for edges only. */
export async function edgesStage(run: PipelineRun, front: Front): Promise<LineBuffers> {
  const { ctx } = run;
  const { nt, encoder } = front;
  const nh = 3 * nt;
  const segments = run.buffer('segments', 32 * nh);
  const place = run.buffer('edge-place', 4 * (nh + 1));
  encoder.clearBuffer(place, 4 * nh, 4);
  const clip = run.dispatch(CLIP_EDGES_KERNEL, nh, {
    sites: front.sites,
    triangles: front.triangles,
    halfedges: front.halfedges,
    cc: front.cc,
    ccFlags: front.ccFlags,
    order: front.order,
    segments,
    keep: place,
    grid_uniforms: front.gridUniform,
  });
  await run.record(encoder, 'clip edges', [clip]);
  await encodeScan(ctx, encoder, { input: place, output: place, count: nh + 1 });
  const total = new Uint32Array(1);
  await submitAndRead(ctx, encoder, 'voronoi/edge-count', [
    { source: place, sourceOffset: 4 * nh, target: total },
  ]);
  remapUploads(ctx, 'voronoi/input');
  run.lap('circumcentres + edges');

  const parts = total[0];
  const coords = new Float64Array(4 * parts);
  const out = run.buffer('edge-coords', 32 * parts);
  const emit = ctx.device.createCommandEncoder({ label: 'voronoi/emit-edges' });
  await run.record(emit, 'emit edges', [
    run.dispatch(EMIT_EDGES_KERNEL, nh, { segments, place, coords: out, grid_uniforms: front.gridUniform }),
  ]);
  run.options.profiler?.resolve(emit);
  await submitAndRead(ctx, emit, 'voronoi/edge-coords', [{ source: out, target: coords }]);
  run.stats.bytesDown += coords.byteLength + 4;
  run.lap('emit + readback');
  const partOffsets = new Int32Array(parts + 1);
  for (let k = 0; k <= parts; k++) partOffsets[k] = 2 * k;
  return { coords, partOffsets };
}
