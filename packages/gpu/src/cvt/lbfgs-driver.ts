import type { CvtRun } from '@geoframe/core';
import type { CvtRow, CvtSession } from './cvt-session.js';
import { META } from './lbfgs-kernels.js';
import { type LineProbe, WOLFE_DEFAULTS, wolfeLineSearch } from './line-search.js';

/**
 * L-BFGS (memory 7) with a strong Wolfe line search. What runs where: every evaluation (label,
 * reduce, F̂ and ∇F̂), the trial point x̂ + αd, the pair history and the two-loop recursion stay
 * on the device; the host runs only the line search, which decides on the scalars F̂(x̂ + αd) and
 * ∇F̂·d that each evaluation sends back (with ‖∇F̂‖ and, after an accepted step, ∇F̂·d of the new
 * direction), and writes α back. One submission and one small read-back per evaluation: the
 * line search cannot choose its next α without them.
 */
export async function runLbfgs(session: CvtSession): Promise<CvtRun> {
  const { problem, programs } = session;
  const lb = session.buffers.lbfgs!;
  const max = problem.maxIterations;
  const energy: number[] = [];
  const gradientNorm: number[] = [];
  let evaluations = 1;
  const first = await session.submit([programs.evaluate, programs.firstDirection!], 0, 1, true);
  let current = first.rows[0];
  let slope0 = slopeOf(first.meta!);
  const record = (row: CvtRow) => {
    energy.push(row.energy);
    gradientNorm.push(row.gradientNorm);
    session.onIteration?.({ iteration: evaluations, energy: row.energy, gradientNorm: row.gradientNorm });
  };
  record(current);
  let iterations = 0;
  let converged = session.converged(current);
  let withDirection = false;
  let lastRow = current;
  let failed = false;
  const evaluate = async (
    alpha: number,
    direction: boolean,
  ): Promise<LineProbe & { row: CvtRow; slope0: number }> => {
    session.writeAlpha(alpha);
    const list = direction ? [programs.direction!, programs.trial!] : [programs.trial!];
    const { rows, meta } = await session.submit(list, evaluations, evaluations + 1, direction);
    evaluations++;
    if (rows[0].unlabelled > 0 && evaluations < max) {
      // the JFA's adaptive step missed pixels, so F and ∇F miss their mass: the same point again,
      // now with every JFA step (the device forces it after such an evaluation)
      const again = await session.submit([programs.trial!], evaluations, evaluations + 1);
      evaluations++;
      rows[0] = again.rows[0];
    }
    lastRow = rows[0];
    return {
      alpha,
      value: rows[0].value,
      slope: rows[0].slope,
      row: rows[0],
      slope0: meta ? slopeOf(meta) : Number.NaN,
    };
  };
  while (!converged && evaluations < max) {
    const probe = await evaluate(1, withDirection);
    if (withDirection) slope0 = probe.slope0;
    const budget = { ...WOLFE_DEFAULTS, remaining: () => max - evaluations };
    const search = await wolfeLineSearch(current.value, slope0, probe, (a) => evaluate(a, false), budget);
    if (!search.accepted) {
      failed = true; // no step decreases F: the raster's energy is flat to f32 here
      break;
    }
    current = lastRow;
    iterations++;
    record(current);
    converged = session.converged(current);
    withDirection = true;
  }
  // an accepted point is the last one evaluated (in `positions`); after a failed search the
  // current point is the one the last direction step accepted
  return {
    sites: await session.sites(failed ? lb.accepted : session.buffers.positions),
    energy: Float64Array.from(energy),
    gradientNorm: Float64Array.from(gradientNorm),
    iterations,
    evaluations,
    converged,
  };
}

function slopeOf(meta: Uint32Array): number {
  return new Float32Array(meta.buffer, meta.byteOffset, meta.length)[META.slope0];
}
