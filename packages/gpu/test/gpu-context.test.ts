import {
  GpuContext,
  GpuDeviceLostError,
  GpuUnavailableError,
  getGpuContext,
  releaseGpuContext,
  scanU32,
} from '@geoframe/gpu';
import { afterEach, expect, test, vi } from 'vitest';
import { loadGpu } from '../src/runtime/load-gpu.js';
import { gpuTest, requireGpu } from './gpu-test-context.js';

/** A WebGPU entry point with no adapter, as on a machine without GPU or software driver. */
const noAdapterGpu = { requestAdapter: async () => null } as unknown as GPU;

/** An adapter from the library's own WebGPU instance: a second Dawn instance in one process can crash it at exit. */
async function nodeAdapter(): Promise<GPUAdapter> {
  const adapter = await (await loadGpu()).requestAdapter();
  if (!adapter) throw new Error('no adapter');
  return adapter;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

test('no adapter is a GpuUnavailableError that says so', async () => {
  const error = await GpuContext.create({ gpu: noAdapterGpu }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(GpuUnavailableError);
  expect((error as GpuUnavailableError).code).toBe('GPU_UNAVAILABLE');
  expect((error as GpuUnavailableError).reason).toMatch(/requestAdapter\(\) returned null/);
});

test('navigator.gpu is used when present (and the webgpu package is not)', async () => {
  vi.stubGlobal('navigator', { gpu: noAdapterGpu });
  await expect(GpuContext.create()).rejects.toBeInstanceOf(GpuUnavailableError);
});

gpuTest('a missing required feature is a GpuUnavailableError naming it', async () => {
  await requireGpu();
  await expect(GpuContext.create({ requiredFeatures: ['texture-compression-astc'] })).rejects.toThrow(
    /texture-compression-astc/,
  );
});

gpuTest('the device gets the adapter limits and optional features', async () => {
  const ctx = await requireGpu();
  const adapter = await nodeAdapter();
  for (const name of [
    'maxBufferSize',
    'maxStorageBufferBindingSize',
    'maxComputeWorkgroupStorageSize',
  ] as const) {
    expect(ctx.limits[name]).toBe(adapter.limits[name]);
  }
  expect(ctx.features).toEqual({
    timestampQuery: adapter.features.has('timestamp-query'),
    subgroups: adapter.features.has('subgroups'),
    shaderF16: adapter.features.has('shader-f16'),
  });
  expect(ctx.adapterInfo.vendor).toBe(adapter.info.vendor);
  expect(ctx.adapterInfo.description).toBe(adapter.info.description);
});

gpuTest('an injected device is used as is', async () => {
  const device = await (await nodeAdapter()).requestDevice();
  const ctx = await GpuContext.create({ device });
  expect(ctx.device).toBe(device);
  expect(ctx.limits.maxBufferSize).toBe(device.limits.maxBufferSize);
  expect([...(await scanU32(ctx, Uint32Array.of(1, 2, 3), { inclusive: true }))]).toEqual([1, 3, 6]);
  ctx.destroy();
});

gpuTest('a lost device fails later use with GpuDeviceLostError', async () => {
  const ctx = await GpuContext.create();
  expect(ctx.isLost).toBe(false);
  ctx.destroy();
  expect(ctx.isLost).toBe(true);
  expect(() => ctx.assertUsable()).toThrow(GpuDeviceLostError);
  await expect(scanU32(ctx, Uint32Array.of(1, 2, 3))).rejects.toBeInstanceOf(GpuDeviceLostError);
  expect((await ctx.lost).reason).toBe('destroyed');
});

gpuTest('uncaptured errors reach listeners and lastUncapturedError', async () => {
  const ctx = await GpuContext.create();
  const seen = new Promise<GPUError>((resolve) => ctx.onUncapturedError(resolve));
  // a buffer with no usage flags is invalid
  ctx.device.createBuffer({ size: 4, usage: 0 });
  const error = await seen;
  expect(error.message).toMatch(/usage/i);
  expect(ctx.lastUncapturedError).toBe(error);
  ctx.destroy();
});

gpuTest('getGpuContext shares one context and replaces it after loss', async () => {
  const [a, b] = await Promise.all([getGpuContext(), getGpuContext()]);
  expect(b).toBe(a);
  a.destroy();
  const c = await getGpuContext();
  expect(c).not.toBe(a);
  expect(c.isLost).toBe(false);
  await releaseGpuContext();
  expect(c.isLost).toBe(true);
  const d = await getGpuContext();
  expect(d).not.toBe(c);
});
