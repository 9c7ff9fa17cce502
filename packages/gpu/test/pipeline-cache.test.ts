import { GpuValidationError } from '@geoframe/gpu';
import { expect } from 'vitest';
import type { KernelSpec } from '../src/runtime/pipeline-cache.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';

const fill: KernelSpec<{ workgroupSize: number; value: number }> = {
  name: 'test/fill',
  source: (c) => /* wgsl */ `
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(${c.workgroupSize})
fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x < arrayLength(&out)) {
    out[id.x] = ${c.value}u;
  }
}
`,
};

test('the same kernel and constants give the same pipeline; other constants another', async () => {
  const ctx = await requireGpu();
  const before = ctx.pipelines.size;
  const a = await ctx.pipelines.get(fill, { workgroupSize: 64, value: 7 });
  const b = await ctx.pipelines.get(fill, { value: 7, workgroupSize: 64 });
  const c = await ctx.pipelines.get(fill, { workgroupSize: 64, value: 8 });
  expect(b).toBe(a);
  expect(c).not.toBe(a);
  expect(ctx.pipelines.size).toBe(before + 2);
});

test('WGSL that does not compile is a GpuValidationError naming the kernel, and is not cached', async () => {
  const ctx = await requireGpu();
  const broken: KernelSpec<{ n: number }> = {
    name: 'test/broken',
    source: (c) => `@compute @workgroup_size(1) fn main() { let x: u32 = ${c.n}.5; }`,
  };
  const before = ctx.pipelines.size;
  const error = await ctx.pipelines.get(broken, { n: 1 }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GpuValidationError);
  expect((error as GpuValidationError).kernel).toBe('test/broken');
  expect((error as GpuValidationError).code).toBe('GPU_VALIDATION');
  expect((error as Error).message).toMatch(/^test\/broken: pipeline creation failed: 1:\d+ /);
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(ctx.pipelines.size).toBe(before);
});
