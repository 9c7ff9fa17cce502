import type { GpuContext } from '@geoframe/gpu';
import { GRID_UNIFORMS_BYTES } from '../src/exact/fixed-point-wgsl.js';
import { FIXED_WGSL } from '../src/exact/fixed-wgsl.js';
import { createStorage, readback, uploadStorage, uploadUniform } from '../src/runtime/buffers.js';
import { dispatchThreads } from '../src/runtime/dispatch.js';
import type { KernelSpec } from '../src/runtime/pipeline-cache.js';
import { BufferUsage } from '../src/runtime/usage.js';

const WG = 64;

/**
 * Runs `body` once per case on the GPU with the fixed-point library prepended: case i reads its
 * `inWords` input words through `in_word(k)`, `in2(k)`, `in4(k)` (k relative to the case) and
 * writes `outWords` words through `out_word(k, v)`. `grid` (12 words, `gridUniformWords`) is
 * loaded with `grid_init` first. Returns every case's output words.
 */
export async function runCases(
  ctx: GpuContext,
  name: string,
  body: string,
  input: Uint32Array,
  inWords: number,
  outWords: number,
  grid: Uint32Array = new Uint32Array(GRID_UNIFORMS_BYTES / 4),
): Promise<Uint32Array> {
  const count = input.length / inWords;
  if (!Number.isInteger(count)) throw new RangeError('input is not a whole number of cases');
  const kernel: KernelSpec<{ inWords: number; outWords: number }> = {
    name: `test/${name}`,
    source: () => /* wgsl */ `
${FIXED_WGSL}
struct Params {
  grid: GridUniforms,
  count: u32,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> inp: array<u32>;
@group(0) @binding(2) var<storage, read_write> outp: array<u32>;
var<private> in_base: u32;
var<private> out_base: u32;
fn in_word(k: u32) -> u32 { return inp[in_base + k]; }
fn in2(k: u32) -> vec2<u32> { return vec2<u32>(inp[in_base + k], inp[in_base + k + 1u]); }
fn in4(k: u32) -> vec4<u32> { return vec4<u32>(in2(k), in2(k + 2u)); }
fn out_word(k: u32, v: u32) { outp[out_base + k] = v; }
fn out2(k: u32, v: vec2<u32>) { out_word(k, v.x); out_word(k + 1u, v.y); }
fn out4(k: u32, v: vec4<u32>) { out2(k, v.xy); out2(k + 2u, v.zw); }

@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
        @builtin(local_invocation_index) lid: u32) {
  let i = (wid.y * nwg.x + wid.x) * ${WG}u + lid;
  if (i >= params.count) {
    return;
  }
  grid_init(params.grid);
  in_base = i * ${inWords}u;
  out_base = i * ${outWords}u;
${body}
}
`,
  };
  const out = new Uint32Array(count * outWords);
  if (count === 0) return out;
  const pipeline = await ctx.pipelines.get(kernel, { inWords, outWords });
  const params = new Uint32Array(16);
  params.set(grid, 0);
  params[12] = count;
  const owned: GPUBuffer[] = [];
  try {
    const uniform = await uploadUniform(ctx, params, `${name} params`);
    owned.push(uniform);
    const inBuffer = await uploadStorage(ctx, input, `${name} in`);
    owned.push(inBuffer);
    const outBuffer = await createStorage(ctx, out.byteLength, `${name} out`, BufferUsage.COPY_SRC);
    owned.push(outBuffer);
    const encoder = ctx.device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(
      0,
      ctx.device.createBindGroup({
        layout: pipeline.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: { buffer: uniform } },
          { binding: 1, resource: { buffer: inBuffer } },
          { binding: 2, resource: { buffer: outBuffer } },
        ],
      }),
    );
    dispatchThreads(pass, count, WG);
    pass.end();
    ctx.device.queue.submit([encoder.finish()]);
    return await readback(ctx, outBuffer, out);
  } finally {
    for (const b of owned) b.destroy();
  }
}
