import { type CvtIteration, type CvtRasterProblem, cvtConverged } from '@geoframe/core';
import type { RasterProgram } from '../raster/raster-program.js';
import { alignBufferSize, readback } from '../runtime/buffers.js';
import { GpuValidationError } from '../runtime/errors.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import type { GpuProfiler } from '../runtime/profiler.js';
import { type CvtBuffers, createCvtBuffers, destroyCvtBuffers } from './cvt-buffers.js';
import { buildCvtPrograms, type CvtPrograms, DEFAULT_SLOTS } from './cvt-programs.js';
import { type CvtSetup, SUMS } from './cvt-setup.js';
import { HISTORY, HISTORY_WORDS } from './cvt-wgsl.js';
import { META, META_WORDS } from './lbfgs-kernels.js';
import { LLOYD_BATCH } from './lloyd-driver.js';
import { StagingPool } from './staging-pool.js';

/** One evaluation's scalars as read back, in coordinate units (energy, gradient norm) and GPU units. */
export interface CvtRow extends CvtIteration {
  /** F̂ (GPU units, exact sum). */
  value: number;
  /** ∇F̂·d at the evaluated point (L-BFGS). */
  slope: number;
  /** Pixels whose label changed since the previous evaluation. */
  changed: number;
  /** The JFA's first step this evaluation. */
  step: number;
  /** Region pixels the JFA left unlabelled (their mass is missing from this evaluation). */
  unlabelled: number;
}

/** What a submission reads back. */
export interface CvtRead {
  rows: CvtRow[];
  meta: Uint32Array | null;
}

/** Options shared by the drivers. */
export interface CvtSessionOptions {
  onIteration?: (step: CvtIteration) => void;
  /** Workgroup slots of the moments pre-reduction (0: global atomics only); for benchmarks. */
  slots?: number;
  /** Times the compute passes of each submission (benchmarks). */
  profiler?: GpuProfiler;
  /**
   * Receives host-side milliseconds by phase (buffers, programs, record, submit, wait) and the
   * number of dispatches recorded (`dispatches`); benchmarks.
   */
  hostMs?: Record<string, number>;
  /** The paper's adaptive first JFA step (default true); false: every pass, every time. */
  adaptiveStep?: boolean;
}

/**
 * The device side of one CVT run: buffers, programs, and the few ways the host talks to them
 * (submit programs, read history rows, read positions). Close with {@link destroy}.
 */
export class CvtSession {
  readonly ctx: GpuContext;
  readonly setup: CvtSetup;
  readonly problem: CvtRasterProblem;
  readonly buffers: CvtBuffers;
  readonly programs: CvtPrograms;
  readonly onIteration?: (step: CvtIteration) => void;
  /** Total GPU time of the profiled submissions, ms. */
  gpuMs = 0;
  /** GPU time of the profiled submissions per pass name, ms. */
  readonly gpuPassMs: Record<string, number> = {};
  private readonly profiler?: GpuProfiler;
  private readonly hostMs?: Record<string, number>;
  private readonly staging: StagingPool;
  /** Whether the prologue has been submitted (the first submission starts with it). */
  private started = false;

  private constructor(
    ctx: GpuContext,
    setup: CvtSetup,
    problem: CvtRasterProblem,
    b: CvtBuffers,
    p: CvtPrograms,
    staging: StagingPool,
    options: CvtSessionOptions,
  ) {
    this.staging = staging;
    this.ctx = ctx;
    this.setup = setup;
    this.problem = problem;
    this.buffers = b;
    this.programs = p;
    this.onIteration = options.onIteration;
    this.profiler = options.profiler;
    this.hostMs = options.hostMs;
  }

  static async open(
    ctx: GpuContext,
    setup: CvtSetup,
    problem: CvtRasterProblem,
    options: CvtSessionOptions,
  ): Promise<CvtSession> {
    const rows = problem.maxIterations + 2;
    const t3 = performance.now();
    const buffers = await createCvtBuffers(ctx, setup, rows, problem.method === 'lbfgs');
    try {
      const T = options.hostMs;
      if (T) T.buffers = (T.buffers ?? 0) + performance.now() - t3;
      const programs = await buildCvtPrograms(
        ctx,
        setup,
        problem,
        buffers,
        options.slots ?? DEFAULT_SLOTS,
        options.adaptiveStep ?? true,
      );
      if (T) T.programs = (T.programs ?? 0) + performance.now() - t3;
      try {
        // two read-backs in flight (Lloyd's pipelining), of a whole batch's rows and the meta words
        const bytes = alignBufferSize(LLOYD_BATCH.most * HISTORY_WORDS * 4) + alignBufferSize(META_WORDS * 4);
        const staging = await StagingPool.create(ctx, 2, bytes);
        return new CvtSession(ctx, setup, problem, buffers, programs, staging, options);
      } catch (error) {
        programs.destroy();
        throw error;
      }
    } catch (error) {
      destroyCvtBuffers(buffers);
      throw error;
    }
  }

  /**
   * Records `programs` in order into one submission (one compute pass, or a pass per stage under
   * a profiler; the session's first submission starts with the prologue), then reads back history rows
   * [`from`, `to`) and, with `meta`, the L-BFGS meta words.
   */
  async submit(programs: RasterProgram[], from: number, to: number, meta = false): Promise<CvtRead> {
    return (await this.enqueue(programs, from, to, meta)).read();
  }

  /**
   * {@link submit} in two steps: records and submits now, reads when `read` is called, so the
   * host can record the next submission while the GPU runs this one (not with a profiler, whose
   * rounds are one submission each).
   */
  async enqueue(
    programs: RasterProgram[],
    from: number,
    to: number,
    meta = false,
  ): Promise<{ read: () => Promise<CvtRead> }> {
    const device = this.ctx.device;
    const T = this.hostMs;
    const list = this.started ? programs : [this.programs.prologue, ...programs];
    this.started = true;
    device.pushErrorScope('validation');
    let thrown: unknown;
    let read: (() => Promise<Uint8Array[]>) | null = null;
    try {
      const t0 = performance.now();
      const encoder = device.createCommandEncoder({ label: 'cvt' });
      if (this.profiler) {
        for (const p of list) await p.record(encoder, this.profiler);
        this.profiler.resolve(encoder);
      } else {
        // one compute pass for the whole submission: a pass per stage costs the host more than
        // its dispatches (timed passes need their own, hence the profiler's branch)
        const pass = encoder.beginComputePass({ label: 'cvt' });
        for (const p of list) p.recordInto(pass);
        pass.end();
      }
      const parts = [
        {
          buffer: this.buffers.history,
          offset: from * HISTORY_WORDS * 4,
          bytes: (to - from) * HISTORY_WORDS * 4,
        },
      ];
      if (meta && this.buffers.lbfgs)
        parts.push({ buffer: this.buffers.lbfgs.meta, offset: 0, bytes: META_WORDS * 4 });
      read = (await this.staging.stage(encoder, parts)).read;
      const t1 = performance.now();
      device.queue.submit([encoder.finish()]);
      if (T) {
        T.dispatches = (T.dispatches ?? 0) + list.reduce((n, p) => n + p.dispatchCount, 0);
        T.record = (T.record ?? 0) + t1 - t0;
        T.submit = (T.submit ?? 0) + performance.now() - t1;
      }
    } catch (error) {
      thrown = error;
    }
    const scope = device.popErrorScope();
    if (thrown) {
      await scope;
      throw thrown;
    }
    const readRows = async (): Promise<CvtRead> => {
      const error = await scope;
      if (error) throw new GpuValidationError('cvt', error.message);
      const t2 = performance.now();
      const [history, metaBytes] = await read!();
      if (T) T.wait = (T.wait ?? 0) + performance.now() - t2;
      if (this.profiler) {
        const profile = await this.profiler.profile();
        this.gpuMs += profile.totalMs;
        for (const pass of profile.passes)
          this.gpuPassMs[pass.name] = (this.gpuPassMs[pass.name] ?? 0) + pass.ms;
      }
      const words = new Uint32Array(history.buffer, history.byteOffset, history.byteLength / 4);
      const rows: CvtRow[] = [];
      for (let r = 0; r < to - from; r++)
        rows.push(this.row(words.subarray(r * HISTORY_WORDS), from + r + 1));
      const metaWords = metaBytes
        ? new Uint32Array(metaBytes.buffer, metaBytes.byteOffset, META_WORDS)
        : null;
      return { rows, meta: metaWords };
    };
    return { read: readRows };
  }

  /** Whether submissions may overlap (see {@link enqueue}). */
  get pipelined(): boolean {
    return !this.profiler;
  }

  /** Writes the L-BFGS step length the next trial uses. */
  writeAlpha(alpha: number): void {
    this.ctx.device.queue.writeBuffer(this.buffers.lbfgs!.meta, META.alpha * 4, Float32Array.of(alpha));
  }

  /** Whether a row meets the one stopping rule. */
  converged(row: CvtRow): boolean {
    return cvtConverged(row.gradientNorm, this.setup.mass, this.setup.diagonal, this.problem.tolerance);
  }

  /** The sites held in `buffer` (f32 scaled units), as f64 coordinates in input order. */
  async sites(buffer: GPUBuffer): Promise<Float64Array> {
    const s = this.setup;
    const f32 = await readback(this.ctx, buffer, new Float32Array(2 * s.count));
    const out = new Float64Array(2 * s.count);
    const [xmin, , , ymax] = s.bounds;
    for (let i = 0; i < s.count; i++) {
      out[2 * i] = xmin + s.pixelWidth * f32[2 * i];
      out[2 * i + 1] = ymax - s.pixelWidth * f32[2 * i + 1];
    }
    return out;
  }

  destroy(): void {
    this.staging.destroy();
    this.programs.destroy();
    destroyCvtBuffers(this.buffers);
  }

  private row(w: Uint32Array, iteration: number): CvtRow {
    const f = new Float32Array(w.buffer, w.byteOffset, HISTORY_WORDS);
    const fixed = w[HISTORY.energyHi] * 2 ** 32 + w[HISTORY.energyLo];
    const value = fixed * 2 ** -this.setup.shifts[SUMS.energy];
    return {
      iteration,
      value,
      energy: value * this.setup.energyUnit,
      gradientNorm: Math.sqrt(f[HISTORY.gradient2]) * this.setup.gradientUnit,
      slope: f[HISTORY.slope],
      changed: w[HISTORY.changed],
      step: w[HISTORY.step],
      unlabelled: w[HISTORY.unlabelled],
    };
  }
}
