/** One step of a call and the wall time it took, in milliseconds. */
export interface HostLap {
  stage: string;
  ms: number;
}

/**
 * The wall time of a call's steps, for benchmarks (`bench/gpu/walltime.ts`): each `lap` closes
 * the step since the previous one. A call given none records nothing.
 */
export class HostLaps {
  readonly laps: HostLap[] = [];
  private clock = performance.now();

  lap(stage: string): void {
    const now = performance.now();
    this.laps.push({ stage, ms: now - this.clock });
    this.clock = now;
  }

  /** Steps measured elsewhere (an engine's own stage laps), listed as parts of the last lap. */
  parts(laps: readonly HostLap[]): void {
    for (const { stage, ms } of laps) this.laps.push({ stage: `  ${stage}`, ms });
  }
}
