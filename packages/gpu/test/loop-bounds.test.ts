import { GpuLoopLimitError, runOnGpu } from '@geoframe/gpu';
import { describe, expect } from 'vitest';
import { planned, recordDispatches } from '../src/primitives/dispatch-recorder.js';
import { readback, uploadStorage } from '../src/runtime/buffers.js';
import { createFaultBuffer, FAULT_FAN_WALK, throwOnFault } from '../src/runtime/kernel-fault.js';
import { BufferUsage } from '../src/runtime/usage.js';
import { KIND_HULL, KIND_SIMPLE, PLAN_CELLS_KERNEL } from '../src/voronoi/cells/walk-kernels.js';
import { gpuTest as test } from './gpu-test-context.js';

/**
 * Runs the Voronoi plan-cells kernel (the walk around each site's fan) on hand-made half-edge
 * twins, under the watchdog (so a walk that spins is a timeout, not a hang), and returns each
 * site's kind and slot size and the run's fault word.
 */
async function planCells(halfedges: number[], starts: number[]) {
  return runOnGpu(
    'plan-cells test',
    halfedges.length,
    async (ctx) => {
      const sites = starts.length;
      const storage = (words: ArrayLike<number>, label: string, signed = false) =>
        uploadStorage(
          ctx,
          signed ? Int32Array.from(words) : Uint32Array.from(words),
          label,
          BufferUsage.COPY_SRC,
        );
      const buffers = [
        await storage(halfedges, 'halfedges', true),
        await storage(
          starts.map((e) => ~e >>> 0),
          'starts',
        ),
        await storage(new Array(halfedges.length / 3).fill(1), 'cc flags (inside)'),
        await storage(new Array(sites).fill(0), 'kind'),
        await storage(new Array(sites + 1).fill(0), 'slots'),
      ];
      const faults = createFaultBuffer(ctx, 'plan-cells test');
      const encoder = ctx.device.createCommandEncoder();
      await recordDispatches(
        ctx,
        encoder,
        'plan-cells test',
        [
          planned(PLAN_CELLS_KERNEL, {
            params: [sites],
            buffers: {
              halfedges: buffers[0],
              start: buffers[1],
              ccFlags: buffers[2],
              kind: buffers[3],
              slots: buffers[4],
              fault_flags: faults,
            },
            workgroups: 1,
          }),
        ],
        ctx.limits.maxComputeWorkgroupsPerDimension,
      );
      ctx.device.queue.submit([encoder.finish()]);
      const kind = await readback(ctx, buffers[3], new Uint32Array(sites));
      const slots = await readback(ctx, buffers[4], new Uint32Array(sites));
      const fault = (await readback(ctx, faults, new Uint32Array(1)))[0];
      for (const b of [...buffers, faults]) b.destroy();
      return { kind, slots, fault };
    },
    { timeoutMs: 40_000 },
  );
}

describe('kernel loops end at their proven bound and say so', () => {
  test('a fan walk over twins that never close raises the fault instead of spinning', async () => {
    // triangles (0 1 2) and (3 4 5); from half-edge 0 the walk goes 0 → 4 → 2 → 5 → 2 → 5 …:
    // the twins are not an involution, so it never comes back to 0 and never meets the hull
    const { fault } = await planCells([3, 4, 4, 0, 1, 1], [0]);
    expect(fault).toBe(FAULT_FAN_WALK);
    expect(() => throwOnFault(fault, 'voronoi cells')).toThrow(GpuLoopLimitError);
    expect(() => throwOnFault(fault, 'voronoi cells')).toThrow(/did not close/);
  });

  test('consistent twins: no fault, and the degrees and kinds of a quad split in two', async () => {
    // sites 0 1 2 3 of a quad, triangles (0 1 2) and (0 2 3); the shared edge 2→0 / 0→2 is the
    // twin pair (2, 3); every other half-edge is on the hull
    const halfedges = [-1, -1, 3, 2, -1, -1];
    // each site starts just after the hull edge ending at it (as the hull-start pass sets it)
    const starts = [3, 1, 2, 5];
    const { kind, slots, fault } = await planCells(halfedges, starts);
    expect(fault).toBe(0);
    expect(() => throwOnFault(fault, 'voronoi cells')).not.toThrow();
    for (let k = 0; k < 4; k++) expect(kind[k] & KIND_HULL).toBe(KIND_HULL);
    for (let k = 0; k < 4; k++) expect(kind[k] & KIND_SIMPLE).toBe(0);
    // a hull cell's slot is 2·degree + 8: sites 0 and 2 touch both triangles, 1 and 3 one
    expect([...slots]).toEqual([12, 10, 12, 10]);
  });
});
