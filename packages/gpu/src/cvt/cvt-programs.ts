import type { CvtRasterProblem } from '@geoframe/core';
import { RasterProgram } from '../raster/raster-program.js';
import { gridWorkgroups, paramBlock } from '../raster/raster-wgsl.js';
import { FILL_KERNEL } from '../raster/seed-kernels.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import type { CvtBuffers } from './cvt-buffers.js';
import type { CvtSetup } from './cvt-setup.js';
import { FINISH_KERNEL } from './finish-kernel.js';
import { EXACT_LABEL_KERNEL, JFA_PASS_KERNEL } from './label-kernels.js';
import { DIRECTION_KERNEL } from './lbfgs-kernels.js';
import { MOMENTS_KERNEL } from './moments-kernel.js';
import { type PlanNumbers, planWords, SEED_KERNEL } from './seed-kernel.js';

/** Evaluations with the full JFA step sequence before the adaptive first step (the paper's 5). */
export const ADAPTIVE_AFTER = 5;

/** Workgroup slots of the moments kernel's local pre-reduction (0: global atomics only). */
export const DEFAULT_SLOTS = 8;

/** Nominal JFA passes of a grid: one step-1 pass, then firstStep, …, 1. */
export function jfaPasses(setup: CvtSetup): number {
  return 1 + Math.log2(setup.firstStep) + 1;
}

/** The programs of a run: one evaluation, and the L-BFGS steps around it. */
export interface CvtPrograms {
  /**
   * Once before the first evaluation (the session's first submission starts with it): fills the
   * previous labels and half 0 of the labels with NONE, seeds the initial sites and plans the
   * first JFA (what the seed kernel after each Lloyd finish, or each trial, does for the next).
   */
  prologue: RasterProgram;
  /**
   * Label, reduce, finish: one evaluation at `positions` (Lloyd: and its update, then the next
   * evaluation's seeding and JFA plan). Per evaluation the host records the JFA passes, the
   * reduction and the finish, nothing else (see adr/0028).
   */
  evaluate: RasterProgram;
  /** L-BFGS: the trial point from `alpha` (seeded, planned), then {@link evaluate}'s passes. */
  trial: RasterProgram | null;
  /** L-BFGS: accept the last point and compute the next direction (first: no pair to keep). */
  firstDirection: RasterProgram | null;
  direction: RasterProgram | null;
  destroy(): void;
}

/** What every kernel of a run shares: the grid's parameter-block pieces and the JFA's plan. */
interface Shape {
  setup: CvtSetup;
  b: CvtBuffers;
  jfa: boolean;
  slots: number;
  lloyd: boolean;
  geometry: number[];
  scale: number[];
  grid: { grid: [number, number, number] };
  plan: PlanNumbers;
}

/**
 * Builds the run's programs over `b` (see the kernels for what each pass does). `slots` picks the
 * moments kernel's workgroup pre-reduction.
 */
export async function buildCvtPrograms(
  ctx: GpuContext,
  setup: CvtSetup,
  problem: CvtRasterProblem,
  b: CvtBuffers,
  slots = DEFAULT_SLOTS,
  adaptiveStep = true,
): Promise<CvtPrograms> {
  const { width: w, height: h, pixels } = setup;
  const shape: Shape = {
    setup,
    b,
    jfa: problem.labelling !== 'exact',
    slots,
    lloyd: problem.method === 'lloyd',
    geometry: [w, h, 1, pixels],
    scale: [1, setup.scaleY, 0, 1],
    grid: { grid: gridWorkgroups(2, w, h, 1) },
    plan: {
      passes: jfaPasses(setup),
      firstStep: setup.firstStep,
      warmup: adaptiveStep ? ADAPTIVE_AFTER : 0x7fffffff,
    },
  };
  const evaluate = addEvaluation(new RasterProgram(ctx), shape);
  const programs: CvtPrograms = {
    prologue: prologue(new RasterProgram(ctx), shape),
    evaluate,
    trial: null,
    firstDirection: null,
    direction: null,
    destroy: () => {
      for (const p of all()) p?.destroy();
    },
  };
  const all = () => [
    programs.prologue,
    programs.evaluate,
    programs.trial,
    programs.firstDirection,
    programs.direction,
  ];
  if (!shape.lloyd && b.lbfgs) {
    programs.trial = addEvaluation(seedPass(new RasterProgram(ctx), shape, 'cvt trial', true), shape);
    programs.firstDirection = directionProgram(ctx, shape, 1);
    programs.direction = directionProgram(ctx, shape, 0);
  }
  try {
    for (const p of all()) await p?.finish();
  } catch (error) {
    programs.destroy();
    throw error;
  }
  return programs;
}

/** The prologue: NONE into the previous labels and (1+JFA) half 0 of the labels, then the seeding. */
function prologue(program: RasterProgram, shape: Shape): RasterProgram {
  const { setup, b } = shape;
  const fill = (out: GPUBuffer) =>
    program.dispatch(FILL_KERNEL, {
      constants: { dims: 2 },
      params: paramBlock([...shape.geometry, setup.pixels, 0xffffffff], shape.scale),
      buffers: { out },
      workgroups: { linear: Math.ceil(setup.pixels / 256) },
    });
  program.pass('cvt seed');
  fill(b.previous);
  if (!shape.jfa) return program;
  fill(b.labels); // only the first `pixels` words: half 0
  return seedPass(program, shape, null, false);
}

/**
 * The one-workgroup seed kernel in pass `name` (null: the current pass): the L-BFGS trial point
 * with `trial`, then (1+JFA) the seeding and the JFA plan.
 */
function seedPass(program: RasterProgram, shape: Shape, name: string | null, trial: boolean): RasterProgram {
  const { setup, b } = shape;
  const l = trial ? b.lbfgs : null;
  if (name) program.pass(name);
  return program.dispatch(SEED_KERNEL, {
    constants: { trial: trial ? 1 : 0, jfa: shape.jfa ? 1 : 0 },
    params: paramBlock(
      [...shape.geometry, setup.count],
      [...shape.scale, setup.width, setup.height * setup.scaleY],
      planWords(shape.plan),
    ),
    buffers: {
      sites: b.positions,
      ...(shape.jfa
        ? { state: b.state, seed_scratch: b.seedScratch, best_bits: b.bestBits, labels: b.labels }
        : {}),
      ...(l ? { accepted: l.accepted, direction: l.direction, ring_meta: l.meta } : {}),
    },
    workgroups: { grid: [1, 1, 1] },
  });
}

function directionProgram(ctx: GpuContext, shape: Shape, first: number): RasterProgram {
  const { b, setup } = shape;
  const l = b.lbfgs!;
  return new RasterProgram(ctx).pass('cvt direction').dispatch(DIRECTION_KERNEL, {
    constants: { first },
    params: paramBlock([0, 0, 0, 0, setup.count], []),
    buffers: {
      accepted: l.accepted,
      trial: b.positions,
      gradient: l.gradient,
      trial_gradient: l.trialGradient,
      mass: l.mass,
      direction: l.direction,
      s_ring: l.sRing,
      y_ring: l.yRing,
      ring_meta: l.meta,
    },
    workgroups: { grid: [1, 1, 1] },
  });
}

/** Appends one evaluation: labelling ('exact', or the JFA passes the plan asks for), then reduction. */
function addEvaluation(program: RasterProgram, shape: Shape): RasterProgram {
  const { setup, b, geometry, scale, grid } = shape;
  const n = setup.count;
  if (!shape.jfa) {
    program.pass('cvt label').dispatch(EXACT_LABEL_KERNEL, {
      params: paramBlock([...geometry, n, n - 1], scale),
      buffers: { sites: b.positions, labels: b.labels },
      workgroups: grid,
    });
  } else {
    program.pass('cvt jfa');
    for (let k = 0; k < shape.plan.passes; k++) {
      program.dispatch(JFA_PASS_KERNEL, {
        params: paramBlock([...geometry, n, n - 1, k, setup.firstStep], scale),
        buffers: { sites: b.positions, labels: b.labels, state: b.state },
        workgroups: grid,
      });
    }
  }
  addReduction(program, shape);
  // Lloyd moved the sites: seed them and plan the next evaluation's JFA (L-BFGS: the trial does)
  if (shape.lloyd && shape.jfa) seedPass(program, shape, 'cvt seed', false);
  return program;
}

/** The regional reduction and the per-site finish (Lloyd's update or the L-BFGS gradient). */
function addReduction(program: RasterProgram, shape: Shape): void {
  const { setup, b, geometry, scale, grid } = shape;
  const n = setup.count;
  const scales = setup.shifts.map((s) => 2 ** s);
  program.pass('cvt moments').dispatch(MOMENTS_KERNEL, {
    constants: { slots: shape.slots },
    params: paramBlock([...geometry, n, shape.jfa ? 1 : 0], [...scale, ...scales]),
    buffers: {
      sites: b.positions,
      labels: b.labels,
      weights: b.weights,
      previous: b.previous,
      sums: b.sums,
      state: b.state,
    },
    workgroups: grid,
  });
  const l = shape.lloyd ? null : b.lbfgs;
  program.pass('cvt finish').dispatch(FINISH_KERNEL, {
    constants: { lloyd: shape.lloyd ? 1 : 0 },
    params: paramBlock([0, 0, 0, 0, n, b.historyRows], [0, 0, 0, 0, ...setup.shifts.map((s) => 2 ** -s)]),
    buffers: {
      sites: b.positions,
      sums: b.sums,
      state: b.state,
      history: b.history,
      ...(l ? { gradient: l.trialGradient, direction: l.direction, mass: l.mass } : {}),
    },
    workgroups: { grid: [1, 1, 1] },
  });
}
