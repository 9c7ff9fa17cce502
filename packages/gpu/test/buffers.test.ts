import {
  BufferUsage,
  createBufferChecked,
  createStorage,
  GpuValidationError,
  readback,
  uploadStorage,
} from '@geoframe/gpu';
import { expect, test } from 'vitest';
import { requireGpu } from './gpu-test-context.js';

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
