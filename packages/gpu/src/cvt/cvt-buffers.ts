import { assertBindable } from '../raster/raster-setup.js';
import { createStorage, uploadStorage } from '../runtime/buffers.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import { BufferUsage } from '../runtime/usage.js';
import { type CvtSetup, SUM_WORDS } from './cvt-setup.js';
import { HISTORY_WORDS, STATE_WORDS } from './cvt-wgsl.js';
import { LBFGS_MEMORY, META_WORDS } from './lbfgs-kernels.js';

/** The device buffers of one CVT run (all created here, destroyed by {@link destroyCvtBuffers}). */
export interface CvtBuffers {
  /** The positions the evaluations label with (Lloyd: the sites; L-BFGS: the trial point). */
  positions: GPUBuffer;
  /** Per site: its seed pixel and distance bits, between the seeding's phases. */
  seedScratch: GPUBuffer;
  /** Per pixel: the least distance bits of the sites seeded there (reset where used). */
  bestBits: GPUBuffer;
  /** Two halves of `pixels` labels (half 0 NONE but at the seeds; the prologue fills it). */
  labels: GPUBuffer;
  weights: GPUBuffer;
  previous: GPUBuffer;
  sums: GPUBuffer;
  /** The state words (`STATE`), the JFA's plan among them. */
  state: GPUBuffer;
  history: GPUBuffer;
  historyRows: number;
  lbfgs: LbfgsBuffers | null;
}

/** The L-BFGS state kept on the device. */
export interface LbfgsBuffers {
  accepted: GPUBuffer;
  gradient: GPUBuffer;
  trialGradient: GPUBuffer;
  direction: GPUBuffer;
  mass: GPUBuffer;
  sRing: GPUBuffer;
  yRing: GPUBuffer;
  meta: GPUBuffer;
}

/**
 * Creates and fills the run's buffers; `historyRows` evaluations at most.
 *
 * @throws RangeError when a buffer exceeds one storage binding of the device; GpuOutOfMemoryError.
 */
export async function createCvtBuffers(
  ctx: GpuContext,
  setup: CvtSetup,
  historyRows: number,
  lbfgs: boolean,
): Promise<CvtBuffers> {
  const { pixels, count } = setup;
  assertBindable(ctx.limits, 8 * pixels, 'the CVT labels');
  if (lbfgs) assertBindable(ctx.limits, 8 * count * LBFGS_MEMORY, 'the L-BFGS history');
  const created: GPUBuffer[] = [];
  const keep = async (p: Promise<GPUBuffer>) => {
    const b = await p;
    created.push(b);
    return b;
  };
  const none = (n: number) => new Uint32Array(n).fill(0xffffffff);
  try {
    const copy = BufferUsage.COPY_SRC | BufferUsage.COPY_DST;
    const buffers: CvtBuffers = {
      positions: await keep(uploadStorage(ctx, setup.positions, 'cvt positions', copy)),
      seedScratch: await keep(createStorage(ctx, 8 * count, 'cvt seed scratch')),
      bestBits: await keep(createStorage(ctx, 4 * pixels, 'cvt best bits')),
      labels: await keep(createStorage(ctx, 8 * pixels, 'cvt labels', BufferUsage.COPY_SRC)),
      weights: await keep(uploadStorage(ctx, setup.weights, 'cvt weights')),
      previous: await keep(uploadStorage(ctx, none(pixels), 'cvt previous labels')),
      sums: await keep(createStorage(ctx, 4 * SUM_WORDS * count, 'cvt sums')),
      state: await keep(createStorage(ctx, 4 * STATE_WORDS, 'cvt state', copy)),
      history: await keep(createStorage(ctx, 4 * HISTORY_WORDS * historyRows, 'cvt history', copy)),
      historyRows,
      lbfgs: null,
    };
    if (lbfgs) {
      const pairs = 8 * count;
      buffers.lbfgs = {
        accepted: await keep(uploadStorage(ctx, setup.positions, 'cvt accepted', copy)),
        gradient: await keep(createStorage(ctx, pairs, 'cvt gradient')),
        trialGradient: await keep(createStorage(ctx, pairs, 'cvt trial gradient')),
        direction: await keep(createStorage(ctx, pairs, 'cvt direction')),
        mass: await keep(createStorage(ctx, 4 * count, 'cvt mass')),
        sRing: await keep(createStorage(ctx, pairs * LBFGS_MEMORY, 'cvt s ring')),
        yRing: await keep(createStorage(ctx, pairs * LBFGS_MEMORY, 'cvt y ring')),
        meta: await keep(createStorage(ctx, 4 * META_WORDS, 'cvt lbfgs meta', copy)),
      };
    }
    return buffers;
  } catch (error) {
    for (const b of created) b.destroy();
    throw error;
  }
}

/** Frees every buffer of `b`. */
export function destroyCvtBuffers(b: CvtBuffers): void {
  const { lbfgs, historyRows: _, ...rest } = b;
  for (const buffer of Object.values(rest)) (buffer as GPUBuffer).destroy();
  if (lbfgs) for (const buffer of Object.values(lbfgs)) buffer.destroy();
}
