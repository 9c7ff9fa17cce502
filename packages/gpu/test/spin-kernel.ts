import type { GpuContext } from '@geoframe/gpu';
import { readback, uploadUniform } from '../src/runtime/buffers.js';
import { BufferUsage } from '../src/runtime/usage.js';

/**
 * A test-only kernel that loops long but bounded: each of 64 × 64 threads iterates a linear
 * congruential step `iterations` times (about 2 s per million iterations on lavapipe, idle).
 * Stands in for a kernel that runs past a deadline; its result is a value the host can check.
 */
const SPIN_WGSL = /* wgsl */ `
@group(0) @binding(0) var<uniform> params: vec4u;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  var x = g.x;
  for (var i = 0u; i < params.x; i++) {
    x = x * 1664525u + 1013904223u;
  }
  out[g.x] = x;
}`;

export const SPIN_THREADS = 64 * 64;

/** What the spin kernel leaves for thread `t` after `iterations` steps (the host's reference). */
export function spinReference(t: number, iterations: number): number {
  let x = t >>> 0;
  for (let i = 0; i < iterations; i++) x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
  return x;
}

/** Submits the spin kernel on `ctx` and returns its output buffer (not yet read). */
export async function submitSpin(ctx: GpuContext, iterations: number): Promise<GPUBuffer> {
  const device = ctx.device;
  const pipeline = await device.createComputePipelineAsync({
    label: 'test/spin',
    layout: 'auto',
    compute: { module: device.createShaderModule({ code: SPIN_WGSL }), entryPoint: 'main' },
  });
  const params = await uploadUniform(ctx, Uint32Array.of(iterations, 0, 0, 0), 'test/spin params');
  const out = device.createBuffer({
    label: 'test/spin out',
    size: SPIN_THREADS * 4,
    usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC,
  });
  const bindGroup = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: { buffer: params } },
      { binding: 1, resource: { buffer: out } },
    ],
  });
  const encoder = device.createCommandEncoder({ label: 'test/spin' });
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindGroup);
  pass.dispatchWorkgroups(SPIN_THREADS / 64);
  pass.end();
  device.queue.submit([encoder.finish()]);
  return out;
}

/** Runs the spin kernel on `ctx` and reads its output back. */
export async function spin(ctx: GpuContext, iterations: number): Promise<Uint32Array> {
  const out = await submitSpin(ctx, iterations);
  return readback(ctx, out, new Uint32Array(SPIN_THREADS));
}
