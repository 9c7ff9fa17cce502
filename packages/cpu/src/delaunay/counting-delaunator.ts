import Delaunator from 'delaunator';
import type { WorkMeter } from '../workers/work-meter.js';

/*
 * delaunator runs a whole triangulation inside its constructor: half the time of a CPU Voronoi
 * diagram, with no way to report from inside. Its insertion loop legalizes each new triangle
 * (`_legalize`: about 2n calls for n sites), so a subclass whose `_legalize` counts its calls
 * and reports every so many measures the loop without touching it. `_legalize` is large and
 * called, not inlined, so the counting wrapper costs nothing measurable (wrapping the small,
 * inlined `_hashKey` instead cost 8–10 % of delaunator's time at 1M sites). Only runs with a
 * listener use the subclass; the others construct delaunator itself. If a delaunator release
 * renames the method, the subclass still triangulates, only silently (a test checks that it counts).
 */

type Legalize = (this: Delaunator<Float64Array>, a: number) => number;

const baseLegalize = (Delaunator.prototype as unknown as { _legalize?: Legalize })._legalize;

// one triangulation at a time runs on a thread (the constructor is synchronous), so the
// counter of the one running lives here: the subclass's own fields do not exist yet while the
// base constructor runs
let calls = 0;
let nextReport = Number.POSITIVE_INFINITY;
let step = 1;
let expected = 1;
let meter: WorkMeter | null = null;

class CountingDelaunator extends Delaunator<Float64Array> {}

if (typeof baseLegalize === 'function') {
  Object.defineProperty(CountingDelaunator.prototype, '_legalize', {
    value: function countedLegalize(this: Delaunator<Float64Array>, a: number): number {
      if (++calls >= nextReport) {
        nextReport += step;
        meter?.units(calls, expected);
      }
      return baseLegalize.call(this, a);
    },
  });
}

/** Reports per triangulation (fewer would leave a 10M-site run's bar still for seconds). */
const REPORTS = 256;

/**
 * `new Delaunator(xy)`, counting its insertion loop on `meter` (units: triangles legalized, about
 * two per site) when the meter listens. The same triangulation, bit for bit.
 */
export function countedDelaunator(xy: Float64Array, counter: WorkMeter): Delaunator<Float64Array> {
  if (!counter.active) return new Delaunator(xy);
  const n = xy.length >> 1;
  calls = 0;
  expected = 2 * n;
  step = Math.max(1024, Math.ceil(expected / REPORTS));
  nextReport = step;
  meter = counter;
  try {
    return new CountingDelaunator(xy);
  } finally {
    meter = null;
    nextReport = Number.POSITIVE_INFINITY;
  }
}
