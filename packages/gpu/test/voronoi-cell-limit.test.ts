// A device that allows fewer storage buffers a stage than the Voronoi ring kernel binds (10, what
// Chromium exposes on every adapter it offers here, its SwiftShader included). The pipeline
// must decline before any GPU work — not after the Delaunay stage, which on a software adapter
// means minutes of compiling — with GpuUnavailableError, which 'auto' answers on the CPU.
import { clipBox } from '@geoframe/core';
import { GpuContext, GpuUnavailableError, voronoiCellsGpu, voronoiEdgesGpu } from '@geoframe/gpu';
import { generatePoints } from '@geoframe/testing';
import { describe, expect, test } from 'vitest';
import { STAR_TAIL_KERNEL } from '../src/delaunay/star-tail-kernel.js';
import { EMIT_RINGS_KERNEL, RING_LENGTHS_KERNEL } from '../src/voronoi/cells/emit-kernels.js';
import { RING_KERNEL } from '../src/voronoi/cells/ring-kernel.js';
import { CELL_STORAGE_BUFFERS } from '../src/voronoi/pipeline-run.js';
import { CPU_STAGES } from './cpu-stages.js';
import { gpuTest, requireGpu } from './gpu-test-context.js';

/**
 * The shared device seen through a proxy whose limits say `storageBuffers` a stage; every call
 * that would make a buffer, a pipeline or a command encoder is counted.
 */
function limitedDevice(device: GPUDevice, storageBuffers: number): { device: GPUDevice; calls: string[] } {
  const calls: string[] = [];
  const limits = new Proxy(device.limits, {
    get: (target, key) =>
      key === 'maxStorageBuffersPerShaderStage' ? storageBuffers : Reflect.get(target, key, target),
  });
  const proxy = new Proxy(device, {
    get: (target, key) => {
      if (key === 'limits') return limits;
      const value = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (typeof key === 'string' && key.startsWith('create')) calls.push(key);
        return value.apply(target, args);
      };
    },
  });
  return { device: proxy, calls };
}

test('the limit checked is the most storage buffers a kernel of the pipeline binds (the ring kernel: 10, as Chromium allows)', () => {
  const storage = (source: string) => source.match(/var<storage/g)?.length ?? 0;
  const ring = storage(RING_KERNEL.source({}));
  expect(ring).toBe(CELL_STORAGE_BUFFERS);
  expect(storage(EMIT_RINGS_KERNEL.source({}))).toBeLessThanOrEqual(ring);
  expect(storage(RING_LENGTHS_KERNEL.source({}))).toBeLessThanOrEqual(ring);
  expect(storage(STAR_TAIL_KERNEL.source({ size: 64 }))).toBeLessThanOrEqual(ring);
});

describe('the Voronoi pipeline on a device with 9 storage buffers a stage', () => {
  gpuTest('declines at once, before any buffer or pipeline, naming the limit', async () => {
    const shared = await requireGpu();
    const { device, calls } = limitedDevice(shared.device, 9);
    const ctx = await GpuContext.create({ device });
    expect(ctx.limits.maxStorageBuffersPerShaderStage).toBe(9);
    const sites = generatePoints('uniform', 300, 5);
    const box = clipBox(sites);
    const message = /the Voronoi cell kernel binds 10 storage buffers, this device allows 9/;
    await expect(voronoiCellsGpu(ctx, sites, box, { cpu: CPU_STAGES })).rejects.toThrow(message);
    await expect(voronoiCellsGpu(ctx, sites, box, { cpu: CPU_STAGES })).rejects.toBeInstanceOf(
      GpuUnavailableError,
    );
    await expect(voronoiEdgesGpu(ctx, sites, box, { cpu: CPU_STAGES })).rejects.toThrow(message);
    expect(calls).toEqual([]);
  });
});
