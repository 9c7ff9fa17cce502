import type { CvtRasterProblem } from '@geoframe/core';
import { RasterProgram } from '../raster/raster-program.js';
import { gridWorkgroups, paramBlock } from '../raster/raster-wgsl.js';
import {
  FILL_KERNEL,
  SEED_DISTANCE_KERNEL,
  SEED_LABEL_KERNEL,
  SEED_RESET_KERNEL,
} from '../raster/seed-kernels.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import type { KernelSpec } from '../runtime/pipeline-cache.js';
import type { CvtBuffers } from './cvt-buffers.js';
import type { CvtSetup } from './cvt-setup.js';
import { FINISH_KERNEL } from './finish-kernel.js';
import {
  EXACT_LABEL_KERNEL,
  JFA_PASS_KERNEL,
  JFA_SCHEDULE_KERNEL,
  SEED_PIXEL_KERNEL,
} from './label-kernels.js';
import { DIRECTION_KERNEL, TRIAL_KERNEL } from './lbfgs-kernels.js';
import { MOMENTS_KERNEL } from './moments-kernel.js';

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
  /** Label, reduce, finish: one evaluation at `positions` (Lloyd: and its update). */
  evaluate: RasterProgram;
  /** L-BFGS: the trial point from `alpha`, then {@link evaluate}'s passes. */
  trial: RasterProgram | null;
  /** L-BFGS: accept the last point and compute the next direction (first: no pair to keep). */
  firstDirection: RasterProgram | null;
  direction: RasterProgram | null;
  destroy(): void;
}

type Bind = [number, GPUBuffer][];
const binds = (list: Bind) => list.map(([binding, buffer]) => ({ binding, buffer }));

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
  const lbfgs = problem.method === 'lbfgs';
  const evaluate = new RasterProgram(ctx);
  addEvaluation(evaluate, setup, problem, b, slots, adaptiveStep);
  const programs: CvtPrograms = {
    evaluate,
    trial: null,
    firstDirection: null,
    direction: null,
    destroy: () => {
      for (const p of [programs.evaluate, programs.trial, programs.firstDirection, programs.direction])
        p?.destroy();
    },
  };
  if (lbfgs && b.lbfgs) {
    const l = b.lbfgs;
    const n = setup.count;
    const trial = new RasterProgram(ctx).pass('cvt trial').dispatch({
      kernel: TRIAL_KERNEL,
      constants: {},
      params: paramBlock([0, 0, 0, 0, n], [0, 0, 0, 0, setup.width, setup.height * setup.scaleY]),
      bindings: binds([
        [1, l.accepted],
        [2, l.direction],
        [3, l.meta],
        [4, b.positions],
      ]),
      workgroups: { linear: Math.ceil(n / 256) },
    });
    addEvaluation(trial, setup, problem, b, slots, adaptiveStep);
    programs.trial = trial;
    const direction = (first: number) =>
      new RasterProgram(ctx).pass('cvt direction').dispatch({
        kernel: DIRECTION_KERNEL as KernelSpec<never>,
        constants: { first },
        params: paramBlock([0, 0, 0, 0, n], []),
        bindings: binds([
          [1, l.accepted],
          [2, b.positions],
          [3, l.gradient],
          [4, l.trialGradient],
          [5, l.mass],
          [6, l.direction],
          [7, l.sRing],
          [8, l.yRing],
          [9, l.meta],
        ]),
        workgroups: { grid: [1, 1, 1] },
      });
    programs.firstDirection = direction(1);
    programs.direction = direction(0);
  }
  try {
    for (const p of [programs.evaluate, programs.trial, programs.firstDirection, programs.direction])
      await p?.finish();
  } catch (error) {
    programs.destroy();
    throw error;
  }
  return programs;
}

/** Appends the passes of one evaluation to `program`: labelling, then reduction. */
function addEvaluation(
  program: RasterProgram,
  setup: CvtSetup,
  problem: CvtRasterProblem,
  b: CvtBuffers,
  slots: number,
  adaptiveStep: boolean,
): void {
  addLabelling(program, setup, problem, b, adaptiveStep);
  addReduction(program, setup, problem, b, slots);
}

/** The parameter-block pieces every grid kernel of an evaluation shares. */
function gridShape(setup: CvtSetup) {
  const { width: w, height: h, pixels } = setup;
  return {
    geometry: [w, h, 1, pixels],
    scale: [1, setup.scaleY, 0, 1],
    grid: { grid: gridWorkgroups(2, w, h, 1) },
  };
}

/** The labelling: 'exact', or seeding, the JFA schedule and the JFA passes. */
function addLabelling(
  program: RasterProgram,
  setup: CvtSetup,
  problem: CvtRasterProblem,
  b: CvtBuffers,
  adaptiveStep: boolean,
): void {
  const { width: w, height: h, pixels, count: n } = setup;
  const { geometry, scale, grid } = gridShape(setup);
  const listN = { linear: Math.ceil(n / 256) };
  const seedParams = paramBlock([...geometry, n, w, h, 0], scale);
  if (problem.labelling === 'exact') {
    program.pass('cvt label').dispatch({
      kernel: EXACT_LABEL_KERNEL as KernelSpec<never>,
      constants: {},
      params: paramBlock([...geometry, n, n - 1], scale),
      bindings: binds([
        [1, b.positions],
        [2, b.labels],
      ]),
      workgroups: grid,
    });
  } else {
    const passes = jfaPasses(setup);
    program
      .pass('cvt seed')
      .dispatch({
        kernel: FILL_KERNEL as KernelSpec<never>,
        constants: { dims: 2 },
        params: paramBlock([...geometry, pixels, 0xffffffff], scale),
        bindings: binds([[1, b.labels]]),
        workgroups: { linear: Math.ceil(pixels / 256) },
      })
      .dispatch(
        seedDispatch(
          SEED_PIXEL_KERNEL,
          {},
          seedParams,
          [
            [1, b.positions],
            [2, b.seed],
          ],
          listN,
        ),
      )
      .dispatch(
        seedDispatch(
          SEED_RESET_KERNEL,
          { dims: 2 },
          seedParams,
          [
            [2, b.seed],
            [3, b.bestBits],
          ],
          listN,
        ),
      )
      .dispatch(
        seedDispatch(
          SEED_DISTANCE_KERNEL,
          { dims: 2 },
          seedParams,
          [
            [1, b.positions],
            [2, b.seed],
            [3, b.siteBits],
            [4, b.bestBits],
          ],
          listN,
        ),
      )
      .dispatch(
        seedDispatch(
          SEED_LABEL_KERNEL,
          { dims: 2, ranked: 0 },
          seedParams,
          [
            [2, b.seed],
            [3, b.siteBits],
            [4, b.bestBits],
            [5, b.labels],
          ],
          listN,
        ),
      )
      .dispatch({
        kernel: JFA_SCHEDULE_KERNEL as KernelSpec<never>,
        constants: { passes, firstStep: setup.firstStep, warmup: adaptiveStep ? ADAPTIVE_AFTER : 0x7fffffff },
        params: paramBlock(geometry, scale),
        bindings: binds([
          [1, b.state],
          [2, b.plan],
        ]),
        workgroups: { grid: [1, 1, 1] },
      });
    program.pass('cvt jfa');
    for (let k = 0; k < passes; k++) {
      program.dispatch({
        kernel: JFA_PASS_KERNEL as KernelSpec<never>,
        constants: {},
        params: paramBlock([...geometry, n, n - 1, k], scale),
        bindings: binds([
          [1, b.positions],
          [2, b.labels],
          [3, b.plan],
        ]),
        workgroups: grid,
      });
    }
  }
}

/** The regional reduction and the per-site finish (Lloyd's update or the L-BFGS gradient). */
function addReduction(
  program: RasterProgram,
  setup: CvtSetup,
  problem: CvtRasterProblem,
  b: CvtBuffers,
  slots: number,
): void {
  const n = setup.count;
  const { geometry, scale, grid } = gridShape(setup);
  const scales = setup.shifts.map((s) => 2 ** s);
  program.pass('cvt moments').dispatch({
    kernel: MOMENTS_KERNEL as KernelSpec<never>,
    constants: { slots },
    params: paramBlock([...geometry, n], [...scale, ...scales]),
    bindings: binds([
      [1, b.positions],
      [2, b.labels],
      [3, b.weights],
      [4, b.previous],
      [5, b.sums],
      [6, b.state],
    ]),
    workgroups: grid,
  });
  const lloyd = problem.method === 'lloyd' ? 1 : 0;
  const finishBinds: Bind = [
    [1, b.positions],
    [2, b.sums],
    [3, b.state],
    [4, b.history],
  ];
  if (!lloyd && b.lbfgs)
    finishBinds.push([5, b.lbfgs.trialGradient], [6, b.lbfgs.direction], [7, b.lbfgs.mass]);
  program.pass('cvt finish').dispatch({
    kernel: FINISH_KERNEL as KernelSpec<never>,
    constants: { lloyd },
    params: paramBlock([0, 0, 0, 0, n, b.historyRows], [0, 0, 0, 0, ...setup.shifts.map((s) => 2 ** -s)]),
    bindings: binds(finishBinds),
    workgroups: { grid: [1, 1, 1] },
  });
}

function seedDispatch(
  kernel: KernelSpec<never> | KernelSpec,
  constants: Record<string, number>,
  params: Uint32Array,
  list: Bind,
  workgroups: { linear: number },
) {
  return { kernel: kernel as KernelSpec<never>, constants, params, bindings: binds(list), workgroups };
}
