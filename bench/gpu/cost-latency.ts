// Round trips of tiny submissions, to find where a small cost-allocation run's fixed time goes
// (bench/gpu/cost-allocation.ts --latency). Each probe submits a little work, maps a small
// MAP_READ buffer the work copied into, and times the call from the submission until the mapping
// resolves (median, min and max of `runs`), varying one thing at a time: a kept or a fresh buffer
// to map, compute passes with direct, indirect and empty indirect dispatches like the cost rounds',
// a second submission in flight, a pending MAP_WRITE mapping of another buffer (what
// remapUploads leaves), and plain event-loop turns.
import type { GpuContext } from '../../packages/gpu/src/index.js';
import type { KernelSpec } from '../../packages/gpu/src/runtime/pipeline-cache.js';
import { BufferUsage, MapMode } from '../../packages/gpu/src/runtime/usage.js';

const TOUCH: KernelSpec<Record<string, never>> = {
  name: 'bench/latency-touch',
  source: () => /* wgsl */ `
@group(0) @binding(0) var<storage, read_write> out: array<atomic<u32>>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if (li == 0u) {
    atomicAdd(&out[0], 1u);
  }
}
`,
};

function stats(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  return `median ${s[s.length >> 1].toFixed(3)} ms (min ${s[0].toFixed(3)}, max ${s.at(-1)!.toFixed(3)})`;
}

type Record = (encoder: GPUCommandEncoder) => void;

/** Prints one line per probe. */
export async function latencyProbe(ctx: GpuContext, runs: number): Promise<void> {
  const { device } = ctx;
  const pipeline = await ctx.pipelines.get(TOUCH, {});
  const target = device.createBuffer({ size: 256, usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC });
  const group = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [{ binding: 0, resource: { buffer: target } }],
  });
  const args = device.createBuffer({ size: 24, usage: BufferUsage.INDIRECT | BufferUsage.COPY_DST });
  device.queue.writeBuffer(args, 0, Uint32Array.of(0, 1, 1, 1, 1, 1));
  const kept = device.createBuffer({ size: 256, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
  const upload = device.createBuffer({
    size: 1 << 20,
    usage: BufferUsage.MAP_WRITE | BufferUsage.COPY_SRC,
    mappedAtCreation: true,
  });
  upload.unmap();
  const scratch = device.createBuffer({ size: 1 << 20, usage: BufferUsage.COPY_DST });

  const pass =
    (dispatches: (p: GPUComputePassEncoder) => void): Record =>
    (encoder) => {
      const p = encoder.beginComputePass();
      p.setPipeline(pipeline);
      p.setBindGroup(0, group);
      dispatches(p);
      p.end();
    };
  const rounds = (n: number, indirectAt: number): Record =>
    pass((p) => {
      for (let i = 0; i < n; i++) {
        p.dispatchWorkgroupsIndirect(args, indirectAt);
        p.dispatchWorkgroups(1);
      }
    });
  /** Submits `record`'s work and a copy into the buffer to map, maps it; ms from submit to mapped. */
  const roundTrip = async (
    record: Record,
    opts: { fresh?: boolean; ahead?: Record; pendingWrite?: boolean } = {},
  ): Promise<number> => {
    const staging = opts.fresh
      ? device.createBuffer({ size: 256, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST })
      : kept;
    const encoder = device.createCommandEncoder();
    if (opts.pendingWrite) encoder.copyBufferToBuffer(upload, 0, scratch, 0, 1 << 20);
    record(encoder);
    encoder.copyBufferToBuffer(target, 0, staging, 0, 256);
    const t0 = performance.now();
    device.queue.submit([encoder.finish()]);
    const writing = opts.pendingWrite ? upload.mapAsync(MapMode.WRITE) : null;
    const mapped = staging.mapAsync(MapMode.READ);
    if (opts.ahead) {
      const e2 = device.createCommandEncoder();
      opts.ahead(e2);
      device.queue.submit([e2.finish()]);
    }
    await mapped;
    const ms = performance.now() - t0;
    staging.unmap();
    if (writing) {
      await writing;
      upload.unmap();
    }
    if (opts.fresh) staging.destroy();
    return ms;
  };
  const probes: [string, () => Promise<number>][] = [
    ['copy only, kept buffer', () => roundTrip(() => {})],
    ['copy only, fresh buffer', () => roundTrip(() => {}, { fresh: true })],
    ['1 dispatch, kept', () => roundTrip(pass((p) => p.dispatchWorkgroups(1)))],
    [
      '1 dispatch, fresh',
      () =>
        roundTrip(
          pass((p) => p.dispatchWorkgroups(1)),
          { fresh: true },
        ),
    ],
    ['8 rounds of empty indirect + 1-thread, kept', () => roundTrip(rounds(8, 0))],
    ['8 rounds of 1-group indirect + 1-thread, kept', () => roundTrip(rounds(8, 12))],
    ['64 rounds of empty indirect + 1-thread, kept', () => roundTrip(rounds(64, 0))],
    ['8 rounds, kept, 16 more submitted behind', () => roundTrip(rounds(8, 0), { ahead: rounds(16, 0) })],
    ['8 rounds, kept, a MAP_WRITE mapping pending', () => roundTrip(rounds(8, 0), { pendingWrite: true })],
    [
      'onSubmittedWorkDone after 1 dispatch',
      async () => {
        const encoder = device.createCommandEncoder();
        pass((p) => p.dispatchWorkgroups(1))(encoder);
        const t0 = performance.now();
        device.queue.submit([encoder.finish()]);
        await device.queue.onSubmittedWorkDone();
        return performance.now() - t0;
      },
    ],
    [
      'setImmediate turn',
      async () => {
        const t0 = performance.now();
        await new Promise((resolve) => setImmediate(resolve));
        return performance.now() - t0;
      },
    ],
  ];
  probes.push(...recordingProbes(device, pipeline, group, args, pass));
  console.log(`round trips (${runs} each, after 2 untimed):`);
  for (const [name, probe] of probes) {
    await probe();
    await probe();
    const ms: number[] = [];
    for (let i = 0; i < runs; i++) ms.push(await probe());
    console.log(`  ${name}: ${stats(ms)}`);
  }
  for (const b of [target, args, kept, upload, scratch]) b.destroy();
}

/**
 * Host time to record and submit 64 rounds (no waiting for the GPU), by the kind of dispatch and
 * whether the pipeline and bind group are set before each.
 */
function recordingProbes(
  device: GPUDevice,
  pipeline: GPUComputePipeline,
  group: GPUBindGroup,
  args: GPUBuffer,
  pass: (dispatches: (p: GPUComputePassEncoder) => void) => Record,
): [string, () => Promise<number>][] {
  // host time to record and submit 64 rounds, by the kind of dispatch (no waiting for the GPU)
  const recordMs = (record: Record) => async () => {
    const t0 = performance.now();
    const encoder = device.createCommandEncoder();
    record(encoder);
    device.queue.submit([encoder.finish()]);
    const ms = performance.now() - t0;
    await device.queue.onSubmittedWorkDone();
    return ms;
  };
  const pairs = (n: number, indirect: boolean, sets: boolean): Record =>
    pass((p) => {
      for (let i = 0; i < n; i++) {
        if (sets) {
          p.setPipeline(pipeline);
          p.setBindGroup(0, group);
        }
        if (indirect) p.dispatchWorkgroupsIndirect(args, 12);
        else p.dispatchWorkgroups(1);
        if (sets) {
          p.setPipeline(pipeline);
          p.setBindGroup(0, group);
        }
        p.dispatchWorkgroups(1);
      }
    });
  return [
    ['record+submit 64 × (indirect + direct), pipeline and group set each', recordMs(pairs(64, true, true))],
    ['record+submit 64 × (direct + direct), pipeline and group set each', recordMs(pairs(64, false, true))],
    ['record+submit 64 × (indirect + direct), set once', recordMs(pairs(64, true, false))],
    ['record+submit 64 × (direct + direct), set once', recordMs(pairs(64, false, false))],
  ];
}
