import type { IndexedRings, PolygonBuffers } from '../delaunay/delaunay-stage.js';
import { throwOnFault } from '../runtime/kernel-fault.js';
import { remapUploads, submitForRead } from '../runtime/staging.js';
import type { CellRings } from './cell-stage.js';
import { EMIT_INDEX_KERNEL, RING_VERTEX_IDS_KERNEL, VERTEX_TABLE_KERNEL } from './cells/vertex-kernels.js';
import type { Front, PipelineRun } from './pipeline-run.js';
import { extraVertexRoom, outputArray, vertexRoomDoubles } from './voronoi-options.js';

/** Whether the indexed emit's buffers for `guess` points fit the device's bindings. */
export function indexedFits(run: PipelineRun, front: Front, guess: number): boolean {
  const limit = Math.min(run.ctx.limits.maxStorageBufferBindingSize, run.ctx.limits.maxBufferSize);
  return 4 * guess <= limit && 16 * (front.nt + extraVertexRoom(front.n)) <= limit;
}

/**
 * Stage 5 as an indexed emit (adr/0015): the circumcentres converted once (the vertex table),
 * each ring point matched to its circumcentre, the rings written as u32 vertex indices at their
 * offsets; the offsets, the indices and the vertices come back in one mapping (about half the
 * bytes of the coordinates) into arrays prepared while the GPU worked, and `cpu.expandRings`
 * (worker threads in geo) writes the coordinates. Null when the output outgrew the guess or the
 * extra vertices their room: `ringOffsets` is then filled, the fault checked, and the caller
 * emits the coordinates at the exact size.
 */
export async function indexedCells(
  run: PipelineRun,
  front: Front,
  rings: CellRings,
  ringOffsets: Int32Array,
): Promise<PolygonBuffers | null> {
  const { ctx } = run;
  const { n, nt } = front;
  const { ring, ringInfo, slots, lengths, faults, ringEncoder: encoder, guess } = rings;
  const room = Math.min(run.options.extraVertices ?? extraVertexRoom(n), extraVertexRoom(n));
  const ids = run.buffer('vertex-ids', Math.max(4, ring.size / 4));
  const index = run.buffer('index', 4 * guess);
  const vertices = run.buffer('vertices', 16 * (nt + room));
  const extra = run.buffer('extra-vertices', 4);
  encoder.clearBuffer(extra, 0, 4);
  const emit = run.dispatch(EMIT_INDEX_KERNEL, n, {
    ring,
    ringInfo,
    slotOffset: slots,
    order: front.order,
    ringOffsets: lengths,
    ids,
    index,
    vertices,
    extra,
    grid_uniforms: front.gridUniform,
  });
  emit.params = [n, run.options.keepRepeats ? 1 : 0, nt];
  await run.record(encoder, 'emit (indexed)', [
    run.dispatch(VERTEX_TABLE_KERNEL, nt, { cc: front.cc, vertices, grid_uniforms: front.gridUniform }),
    run.dispatch(RING_VERTEX_IDS_KERNEL, n, {
      halfedges: front.halfedges,
      start: rings.start,
      kind: rings.kind,
      cc: front.cc,
      ring,
      ringInfo,
      slotOffset: slots,
      ids,
    }),
    emit,
  ]);
  run.options.profiler?.resolve(encoder);
  const pending = await submitForRead(ctx, encoder, 'voronoi/cells-indexed', [
    { source: lengths, bytes: 4 * (n + 1) },
    { source: faults, bytes: 4 },
    { source: extra, bytes: 4 },
    { source: index, bytes: 4 * guess },
    { source: vertices, bytes: 16 * (nt + room) },
  ]);
  // the last device call unless the output outgrows the guess
  run.scope?.close();
  remapUploads(ctx, 'voronoi/input');
  const staged = rings.staging ?? outputArray(run.options.cpu, vertexRoomDoubles(n) + Math.ceil(guess / 2));
  const [out, staging] = await Promise.all([rings.early as Promise<Float64Array>, staged]);
  run.lap('gpu: cells and indexed emit submitted, arrays prepared');
  const { value: indexed, copyMs } = await pending.read((range, offsets) => {
    throwOnFault(new Uint32Array(range, offsets[1], 1)[0], 'voronoi cells');
    ringOffsets.set(new Int32Array(range, offsets[0], n + 1));
    const points = ringOffsets[n];
    const extras = new Uint32Array(range, offsets[2], 1)[0];
    if (points > guess || extras > room) return null;
    const count = nt + extras;
    const result: IndexedRings = {
      vertices: new Float64Array(staging.buffer, staging.byteOffset, 2 * count),
      index: new Uint32Array(staging.buffer, staging.byteOffset + 8 * vertexRoomDoubles(n), points),
      ringOffsets,
    };
    result.vertices.set(new Float64Array(range, offsets[4], 2 * count));
    result.index.set(new Uint32Array(range, offsets[3], points));
    return result;
  });
  run.stats.bytesDown += ringOffsets.byteLength;
  if (indexed === null) {
    run.lap('offsets back (output larger than guessed)');
    return null;
  }
  run.stats.bytesDown += indexed.vertices.byteLength + indexed.index.byteLength;
  run.lap('offsets, indices and vertices back');
  run.stats.stages.push({ stage: '(of which copy out)', ms: copyMs });
  const coords = out.subarray(0, 2 * ringOffsets[n]);
  const expand = run.options.cpu?.expandRings ?? expandHere;
  const cells = await expand(indexed, coords);
  run.lap('rings expanded');
  return cells;
}

/** The rings' coordinates gathered on this thread (repeats kept). */
async function expandHere(rings: IndexedRings, out: Float64Array): Promise<PolygonBuffers> {
  const { vertices, index } = rings;
  for (let p = 0; p < index.length; p++) {
    const v = 2 * index[p];
    out[2 * p] = vertices[v];
    out[2 * p + 1] = vertices[v + 1];
  }
  return { coords: out, ringOffsets: rings.ringOffsets };
}
