import { dispatchSize } from '../runtime/dispatch.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import {
  type BindingEntry,
  type BindingLayout,
  type BoundBuffers,
  bindingEntries,
  groupEntry,
} from '../runtime/kernel-bindings.js';
import {
  type KernelConstants,
  type KernelUse,
  kernelUse,
  type NamedKernel,
} from '../runtime/pipeline-cache.js';
import type { GpuProfiler } from '../runtime/profiler.js';
import { BufferUsage } from '../runtime/usage.js';
import { PARAM_WORDS } from './raster-wgsl.js';

/** How many workgroups: a 3D grid, a 1D count split over x and y, or indirect arguments. */
export type RasterWorkgroups =
  | { grid: [number, number, number] }
  | { linear: number }
  | { indirect: GPUBuffer; offset: number };

/** What a dispatch of a kernel naming its bindings needs besides the kernel. */
export type RasterDispatchPlan<C extends KernelConstants, L extends BindingLayout> = {
  params: Uint32Array;
  buffers: BoundBuffers<L>;
  workgroups: RasterWorkgroups;
} & (Record<string, never> extends C ? { constants?: C } : { constants: C });

/** A dispatch as the program keeps it: the kernel with its constants, and its bindings. */
interface PlannedRasterDispatch {
  kernel: KernelUse;
  params: Uint32Array;
  bindings: BindingEntry[];
  workgroups: RasterWorkgroups;
}

interface ReadyDispatch {
  pipeline: GPUComputePipeline;
  bindGroup: GPUBindGroup;
  workgroups: RasterWorkgroups;
}

type Stage =
  | { kind: 'pass'; name: string; dispatches: PlannedRasterDispatch[] }
  | { kind: 'encode'; run: (encoder: GPUCommandEncoder) => Promise<void> | void };

type ReadyStage =
  | { kind: 'pass'; name: string; dispatches: ReadyDispatch[] }
  | { kind: 'encode'; run: (encoder: GPUCommandEncoder) => Promise<void> | void };

/** Bytes between parameter blocks in the uniform buffer (WebGPU's largest offset alignment). */
const PARAM_STRIDE = 256;

/**
 * A fixed sequence of compute passes (and other encoder work, e.g. a compaction) built once and
 * recorded any number of times. Parameters go into one uniform buffer and bind groups are made at
 * {@link finish}, so recording costs no allocation: what benchmarks and repeated runs need.
 * Dispatches within one pass run in order and see each other's writes (WebGPU's per-dispatch
 * usage scopes).
 */
export class RasterProgram {
  private readonly ctx: GpuContext;
  private readonly stages: Stage[] = [];
  private ready: ReadyStage[] | null = null;
  private uniforms: GPUBuffer | null = null;

  constructor(ctx: GpuContext) {
    this.ctx = ctx;
  }

  /** Starts a new compute pass named `name` (the profiler's pass name). */
  pass(name: string): this {
    this.stages.push({ kind: 'pass', name, dispatches: [] });
    return this;
  }

  /** Adds a dispatch of `kernel` to the current pass, binding `plan.buffers` by name. */
  dispatch<C extends KernelConstants, L extends BindingLayout>(
    kernel: NamedKernel<C, L>,
    plan: RasterDispatchPlan<C, L>,
  ): this {
    const last = this.stages.at(-1);
    if (last?.kind !== 'pass') throw new Error('RasterProgram: dispatch() before pass()');
    last.dispatches.push({
      kernel: kernelUse(kernel, plan.constants),
      params: plan.params,
      bindings: bindingEntries(kernel.bindings, plan.buffers),
      workgroups: plan.workgroups,
    });
    return this;
  }

  /** Adds encoder work outside compute passes (copies, clears, primitives that record their own passes). */
  encode(run: (encoder: GPUCommandEncoder) => Promise<void> | void): this {
    this.stages.push({ kind: 'encode', run });
    return this;
  }

  /** Number of compute passes this program records (what a profiler must have room for). */
  get passCount(): number {
    return this.stages.filter((s) => s.kind === 'pass' && s.dispatches.length > 0).length;
  }

  /** Number of dispatches of its own passes. */
  get dispatchCount(): number {
    return this.stages.reduce((n, s) => n + (s.kind === 'pass' ? s.dispatches.length : 0), 0);
  }

  /** Creates the pipelines, the uniform buffer and the bind groups. Call once, before {@link record}. */
  async finish(): Promise<void> {
    const ctx = this.ctx;
    const all = this.stages.flatMap((s) => (s.kind === 'pass' ? s.dispatches : []));
    const pipelines = await Promise.all(all.map((d) => d.kernel.pipeline(ctx.pipelines)));
    ctx.assertUsable();
    const device = ctx.device;
    const uniforms = device.createBuffer({
      label: 'raster params',
      size: Math.max(1, all.length) * PARAM_STRIDE,
      usage: BufferUsage.UNIFORM,
      mappedAtCreation: true,
    });
    const words = new Uint32Array(uniforms.getMappedRange());
    all.forEach((d, k) => {
      words.set(d.params, (k * PARAM_STRIDE) / 4);
    });
    uniforms.unmap();
    this.uniforms = uniforms;
    let k = 0;
    this.ready = this.stages.map((s): ReadyStage => {
      if (s.kind === 'encode') return s;
      return {
        kind: 'pass',
        name: s.name,
        dispatches: s.dispatches.map((d) => {
          const pipeline = pipelines[k];
          const entries: GPUBindGroupEntry[] = [
            { binding: 0, resource: { buffer: uniforms, offset: k * PARAM_STRIDE, size: PARAM_WORDS * 4 } },
            ...d.bindings.map((b) =>
              groupEntry({ ...b, offset: b.size === undefined ? undefined : (b.offset ?? 0) }),
            ),
          ];
          k++;
          return {
            pipeline,
            bindGroup: device.createBindGroup({
              label: d.kernel.name,
              layout: pipeline.getBindGroupLayout(0),
              entries,
            }),
            workgroups: d.workgroups,
          };
        }),
      };
    });
  }

  /** Records the program into `encoder`; with a profiler, each compute pass is timed under its name. */
  async record(encoder: GPUCommandEncoder, profiler?: GpuProfiler): Promise<void> {
    if (!this.ready) throw new Error('RasterProgram: finish() before record()');
    this.ctx.assertUsable();
    const maxPerDimension = this.ctx.limits.maxComputeWorkgroupsPerDimension;
    for (const stage of this.ready) {
      if (stage.kind === 'encode') {
        await stage.run(encoder);
        continue;
      }
      if (stage.dispatches.length === 0) continue;
      const pass = encoder.beginComputePass(
        profiler ? profiler.passDescriptor(stage.name) : { label: stage.name },
      );
      recordDispatches(pass, stage.dispatches, maxPerDimension);
      pass.end();
    }
  }

  /**
   * Records the dispatches of all its passes into `pass`, an open compute pass, as one sequence
   * (what {@link record} does without a profiler, minus a pass per stage: a caller recording many
   * programs saves the passes' host cost). Dispatches in one pass see each other's writes, so the
   * result is the same. Throws for a program with encoder work outside its passes.
   */
  recordInto(pass: GPUComputePassEncoder): void {
    if (!this.ready) throw new Error('RasterProgram: finish() before recordInto()');
    this.ctx.assertUsable();
    const maxPerDimension = this.ctx.limits.maxComputeWorkgroupsPerDimension;
    for (const stage of this.ready) {
      if (stage.kind === 'encode') throw new Error('RasterProgram: recordInto() with encoder work');
      recordDispatches(pass, stage.dispatches, maxPerDimension);
    }
  }

  /** Frees the uniform buffer (the caller owns the bound buffers). */
  destroy(): void {
    this.uniforms?.destroy();
    this.uniforms = null;
    this.ready = null;
  }
}

/** Sets the pipeline only where it changes (it persists within a pass), then binds and dispatches. */
function recordDispatches(
  pass: GPUComputePassEncoder,
  dispatches: ReadyDispatch[],
  maxPerDimension: number,
): void {
  let pipeline: GPUComputePipeline | null = null;
  for (const d of dispatches) {
    if (d.pipeline !== pipeline) {
      pass.setPipeline(d.pipeline);
      pipeline = d.pipeline;
    }
    pass.setBindGroup(0, d.bindGroup);
    const w = d.workgroups;
    if ('indirect' in w) pass.dispatchWorkgroupsIndirect(w.indirect, w.offset);
    else if ('grid' in w) {
      if (w.grid[0] > 0 && w.grid[1] > 0 && w.grid[2] > 0) pass.dispatchWorkgroups(...w.grid);
    } else {
      const [x, y] = dispatchSize(w.linear, maxPerDimension);
      if (x > 0) pass.dispatchWorkgroups(x, y);
    }
  }
}
