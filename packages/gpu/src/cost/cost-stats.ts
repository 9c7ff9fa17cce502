import type { PhaseRounds } from './cost-rounds.js';

// What a run of costAllocationGpu reports: rounds, visits and times per phase and host step.

/** Per phase: cost, label, hops (0 where not run). */
export interface PerPhase {
  cost: number;
  label: number;
  hops: number;
}

/** The host-side steps of a run, timed in {@link CostGpuStats.hostMs}. */
export type HostStep = 'check' | 'upload' | 'seed' | 'cost' | 'label' | 'hops' | 'wait' | 'copy';

/** How a run went. */
export interface CostGpuStats {
  /** Rounds of all phases together (each round: one dispatch over the active tiles). */
  iterations: number;
  /** Rounds per phase (the label pass: all its runs together). */
  rounds: PerPhase;
  /** Tile visits per phase (a workgroup that took a tile in a round). */
  visits: PerPhase;
  /** Local iterations per phase (summed over tile visits). */
  localIterations: PerPhase;
  /** Host round trips to read the convergence words. */
  batches: number;
  /** Ordered cost pass: listed tiles that waited for a later round. */
  deferred: number;
  /** With `trace`: host events, ms after the call began. */
  trace?: { at: number; what: string }[];
  /**
   * The label pass that gave the labels: `'carried'` (repairing the labels of the cost pass),
   * `'descend'` (asked for), or `'fallback'` (carried labels met a flat tight step: descended).
   */
  labelPass: 'carried' | 'descend' | 'fallback';
  /** GPU time of all passes (timestamp queries), when profiled. */
  gpuMs?: number;
  /** GPU time per step (seed, cost, label, hops, finish), when profiled. */
  gpuSteps?: Record<'seed' | 'cost' | 'label' | 'hops' | 'finish', number>;
  /**
   * Host wall time per step, ms: check (the problem), upload (buffers created, values and
   * sources up), seed (recorded and submitted), cost, label, hops (until the host has the
   * phase's last convergence words), wait (from the last submission, backlink and check passes
   * and the copies to the staging buffer included, until it is mapped), copy (out of the mapping
   * into the returned arrays).
   */
  hostMs: Record<HostStep, number>;
  tiles: number;
}

/** A run's stats from its phases (GPU times and the trace are added by the caller). */
export function runStats(
  { cost, label, hops }: PerPhaseRounds,
  labelPass: CostGpuStats['labelPass'],
  hostMs: Record<HostStep, number>,
  tiles: number,
): CostGpuStats {
  return {
    iterations: cost.rounds + label.rounds + hops.rounds,
    rounds: { cost: cost.rounds, label: label.rounds, hops: hops.rounds },
    visits: { cost: cost.visits, label: label.visits, hops: hops.visits },
    localIterations: { cost: cost.iterations, label: label.iterations, hops: hops.iterations },
    batches: cost.batches + label.batches + hops.batches,
    deferred: cost.deferred,
    labelPass,
    hostMs,
    tiles,
  };
}

export const NO_HOST_MS: Record<HostStep, number> = {
  check: 0,
  upload: 0,
  seed: 0,
  cost: 0,
  label: 0,
  hops: 0,
  wait: 0,
  copy: 0,
};

export type PerPhaseRounds = Record<'cost' | 'label' | 'hops', PhaseRounds>;

export function sumPhases(a: PhaseRounds, b: PhaseRounds): PhaseRounds {
  return {
    rounds: a.rounds + b.rounds,
    batches: a.batches + b.batches,
    gpuMs: a.gpuMs + b.gpuMs,
    visits: a.visits + b.visits,
    iterations: a.iterations + b.iterations,
    deferred: a.deferred + b.deferred,
    flat: a.flat || b.flat,
  };
}
