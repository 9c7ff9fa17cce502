import { EXACT_FIXED } from '../src/exact/fixed-wgsl.js';
import { DELAUNAY_PREDICATES } from '../src/exact/predicates/predicates-wgsl.js';
import type { GpuContext } from '../src/index.js';
import { createStorage, readback, uploadStorage, uploadUniform } from '../src/runtime/buffers.js';
import { dispatchThreads } from '../src/runtime/dispatch.js';
import type { KernelSpec } from '../src/runtime/pipeline-cache.js';
import { BufferUsage } from '../src/runtime/usage.js';
import { linkWgsl } from '../src/runtime/wgsl-module.js';

const WG = 64;

/**
 * A predicate the batch kernel evaluates. Inputs per case (u32 words): points as fixed-grid
 * `vec4<u32>` (x.lo, x.hi, y.lo, y.hi), then site indices for the SoS variants. Outputs per case:
 * `orient` / `incircle`: (sign as i32 bits, path); `orient-sos` / `incircle-sos`: sign; `copy`
 * (the I/O-only baseline for timing, 16 words in): the xor of its inputs and 0.
 */
export type PredicateOp = 'orient' | 'incircle' | 'orient-sos' | 'incircle-sos' | 'copy';

/** Input words per case of each op. */
export const IN_WORDS: Record<PredicateOp, number> = {
  orient: 12,
  incircle: 16,
  'orient-sos': 15,
  'incircle-sos': 20,
  copy: 16,
};

/** Output words per case of each op. */
export const OUT_WORDS: Record<PredicateOp, number> = {
  orient: 2,
  incircle: 2,
  'orient-sos': 1,
  'incircle-sos': 1,
  copy: 2,
};

// One evaluation of the op: `r` is the repetition; the three first arguments are rotated
// cyclically by r (the sign is the same, so repetitions cannot be folded away and do not change
// the answer), selected rather than indexed so the harness itself stays cheap
function evaluate(op: PredicateOp): string {
  // `out`0..2 = the words at `at` rotated by r % 3 (`read` loads one value of type `type`)
  const rotate = (out: string, at: [number, number, number], type: string, read: string) => `
    let ${out}_in0: ${type} = ${read}(${at[0]}u);
    let ${out}_in1: ${type} = ${read}(${at[1]}u);
    let ${out}_in2: ${type} = ${read}(${at[2]}u);
    let ${out}0 = select(select(${out}_in2, ${out}_in1, r % 3u == 1u), ${out}_in0, r % 3u == 0u);
    let ${out}1 = select(select(${out}_in0, ${out}_in2, r % 3u == 1u), ${out}_in1, r % 3u == 0u);
    let ${out}2 = select(select(${out}_in1, ${out}_in0, r % 3u == 1u), ${out}_in2, r % 3u == 0u);`;
  const points = rotate('v', [0, 4, 8], 'vec4<u32>', 'in4');
  switch (op) {
    case 'orient':
      return `${points}
    let res = orient_sign_path(v0, v1, v2);`;
    case 'incircle':
      return `${points}
    let res = incircle_sign_path(v0, v1, v2, in4(12u));`;
    case 'orient-sos':
      return `${points}${rotate('ix', [12, 13, 14], 'u32', 'in_word')}
    let res = vec2<i32>(orient_sos(v0, v1, v2, ix0, ix1, ix2), 0);`;
    case 'incircle-sos':
      return `${points}${rotate('ix', [16, 17, 18], 'u32', 'in_word')}
    let res = vec2<i32>(incircle_sos(v0, v1, v2, in4(12u), ix0, ix1, ix2, in_word(19u)), 0);`;
    case 'copy':
      return `let v = in4(0u) ^ in4(4u) ^ in4(8u) ^ in4(12u) ^ vec4<u32>(r);
    let res = vec2<i32>(bitcast<i32>(v.x ^ v.y ^ v.z ^ v.w), 0);`;
  }
}

const kernel: KernelSpec<{ op: PredicateOp; reps: number }> = {
  name: 'test/delaunay-predicates',
  source: ({ op, reps }) => /* wgsl */ `
${linkWgsl(EXACT_FIXED, DELAUNAY_PREDICATES)}
@group(0) @binding(0) var<uniform> count: vec4<u32>;
@group(0) @binding(1) var<storage, read> inp: array<u32>;
@group(0) @binding(2) var<storage, read_write> outp: array<u32>;
var<private> in_base: u32;
fn in_word(k: u32) -> u32 { return inp[in_base + k]; }
fn in4(k: u32) -> vec4<u32> { return vec4<u32>(inp[in_base + k], inp[in_base + k + 1u], inp[in_base + k + 2u], inp[in_base + k + 3u]); }

@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
        @builtin(local_invocation_index) lid: u32) {
  let i = (wid.y * nwg.x + wid.x) * ${WG}u + lid;
  if (i >= count.x) {
    return;
  }
  in_base = i * ${IN_WORDS[op]}u;
  var sign = 0;
  var path = 0;
  var agree = 1u;
  for (var r = 0u; r < ${reps}u; r++) {
    ${evaluate(op)}
    if (r == 0u) {
      sign = res.x;
      path = res.y;
    } else if (res.x != sign) {
      agree = 0u;
    }
  }
  outp[i * ${OUT_WORDS[op]}u] = select(0x7fffffffu, bitcast<u32>(sign), agree == 1u);
  ${OUT_WORDS[op] === 2 ? `outp[i * 2u + 1u] = u32(path);` : ''}
}
`,
};

/**
 * Evaluates `op` on every case of `input` (`IN_WORDS[op]` words a case) on the GPU, `reps` times
 * with the three first arguments rotated; returns `OUT_WORDS[op]` words a case. A sign word of
 * 0x7fffffff means the rotations disagreed. With `timeRuns` > 0, also returns the median wall
 * time of that many further dispatches (submit to completion, no transfers) in milliseconds.
 */
export async function evalPredicates(
  ctx: GpuContext,
  op: PredicateOp,
  input: Uint32Array,
  reps = 1,
  timeRuns = 0,
): Promise<{ out: Uint32Array; ms: number }> {
  const count = input.length / IN_WORDS[op];
  if (!Number.isInteger(count)) throw new RangeError('input is not a whole number of cases');
  const out = new Uint32Array(count * OUT_WORDS[op]);
  if (count === 0) return { out, ms: 0 };
  const pipeline = await ctx.pipelines.get(kernel, { op, reps });
  const owned: GPUBuffer[] = [];
  try {
    const uniform = await uploadUniform(ctx, new Uint32Array([count, 0, 0, 0]), 'predicates count');
    owned.push(uniform);
    const inBuffer = await uploadStorage(ctx, input, 'predicates in');
    owned.push(inBuffer);
    const outBuffer = await createStorage(ctx, out.byteLength, 'predicates out', BufferUsage.COPY_SRC);
    owned.push(outBuffer);
    const bindGroup = ctx.device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: uniform } },
        { binding: 1, resource: { buffer: inBuffer } },
        { binding: 2, resource: { buffer: outBuffer } },
      ],
    });
    const dispatch = async (): Promise<void> => {
      const encoder = ctx.device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, bindGroup);
      dispatchThreads(pass, count, WG);
      pass.end();
      ctx.device.queue.submit([encoder.finish()]);
      await ctx.device.queue.onSubmittedWorkDone();
    };
    await dispatch();
    const times: number[] = [];
    for (let run = 0; run < timeRuns; run++) {
      const start = performance.now();
      await dispatch();
      times.push(performance.now() - start);
    }
    times.sort((x, y) => x - y);
    return { out: await readback(ctx, outBuffer, out), ms: times.length ? times[times.length >> 1] : 0 };
  } finally {
    for (const b of owned) b.destroy();
  }
}
