import { GpuContext, GpuOutOfMemoryError, GpuValidationError } from '@geoframe/gpu';
import { expect } from 'vitest';
import { createBufferChecked, createStorage, readback, uploadStorage } from '../src/runtime/buffers.js';
import { BufferUsage } from '../src/runtime/usage.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';

test('upload then readback returns the same bytes, into a view of a larger array', async () => {
  const ctx = await requireGpu();
  const data = new Float64Array([1.5, -0, Number.NaN, 1e-310, -1e300, 7]);
  const buffer = await uploadStorage(ctx, data, 'test data', BufferUsage.COPY_SRC);
  const target = new Float64Array(10).fill(42);
  await readback(ctx, buffer, target.subarray(2, 6), 8);
  expect([...target]).toEqual([42, 42, -0, Number.NaN, 1e-310, -1e300, 42, 42, 42, 42]);
  buffer.destroy();
});

test('odd byte lengths are padded on the device and read back exactly', async () => {
  const ctx = await requireGpu();
  const data = new Uint8Array([1, 2, 3, 4, 5]);
  const buffer = await uploadStorage(ctx, data, 'odd bytes', BufferUsage.COPY_SRC);
  expect(buffer.size).toBe(8);
  expect([...(await readback(ctx, buffer, new Uint8Array(5)))]).toEqual([1, 2, 3, 4, 5]);
  const zeros = await createStorage(ctx, 12, 'zeros', BufferUsage.COPY_SRC);
  expect([...(await readback(ctx, zeros, new Uint32Array(3)))]).toEqual([0, 0, 0]);
  buffer.destroy();
  zeros.destroy();
});

test('a buffer over maxBufferSize is a GpuValidationError named by its label', async () => {
  const ctx = await requireGpu();
  const error = await createBufferChecked(ctx, {
    label: 'too big',
    size: ctx.limits.maxBufferSize + 4,
    usage: BufferUsage.STORAGE,
  }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(GpuValidationError);
  expect((error as GpuValidationError).kernel).toBe('too big');
});

/**
 * A device stand-in whose allocations fail as a real one out of memory does: the error lands in
 * the `out-of-memory` scope, or `createBuffer` throws RangeError for `mappedAtCreation`.
 */
function outOfMemoryDevice(throwOnMapped: boolean) {
  const scopes: string[] = [];
  const destroyed: string[] = [];
  const device = {
    limits: {},
    features: new Set<string>(),
    lost: new Promise(() => {}),
    addEventListener() {},
    pushErrorScope(filter: string) {
      scopes.push(filter);
    },
    popErrorScope: async () =>
      scopes.pop() === 'out-of-memory' && !throwOnMapped ? { message: 'no memory left' } : null,
    createBuffer(descriptor: GPUBufferDescriptor) {
      if (throwOnMapped && descriptor.mappedAtCreation) throw new RangeError('mapping failed');
      return { destroy: () => destroyed.push(String(descriptor.label)) };
    },
  };
  return { device: device as unknown as GPUDevice, destroyed };
}

test('a failed allocation is a GpuOutOfMemoryError with the label and size, and the buffer is destroyed', async () => {
  const { device, destroyed } = outOfMemoryDevice(false);
  const ctx = await GpuContext.create({ device });
  const error = await createStorage(ctx, 1 << 20, 'big scratch').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(GpuOutOfMemoryError);
  expect((error as GpuOutOfMemoryError).label).toBe('big scratch');
  expect((error as GpuOutOfMemoryError).bytes).toBe(1 << 20);
  expect((error as Error).message).toMatch(/no memory left/);
  expect(destroyed).toEqual(['big scratch']);

  const mapped = outOfMemoryDevice(true);
  const ctx2 = await GpuContext.create({ device: mapped.device });
  await expect(uploadStorage(ctx2, new Float64Array(8), 'coords')).rejects.toBeInstanceOf(
    GpuOutOfMemoryError,
  );
});
