import Delaunator from 'delaunator';
import type { WorkMeter } from '../workers/work-meter.js';

/*
 * delaunator runs a whole triangulation inside its constructor: half the time of a CPU Voronoi
 * diagram, with no way to report from inside. Its insertion loop legalizes each new triangle
 * with `_legalize(a)`, `a` the new triangle's third half-edge: it grows from 0 to 3 × (2n − 5),
 * so a subclass whose `_legalize` compares `a` with the next report point measures the loop
 * without a counter of its own. One comparison per triangle still costs about 1 % of
 * delaunator's time at 1M sites (counting calls cost 5 %, wrapping the inlined `_hashKey` 10 %),
 * so only runs with a listener use the subclass; the others construct delaunator itself. If a
 * delaunator release renamed the method, the subclass would still triangulate, only silently
 * (a test checks that it reports).
 */

type Legalize = (this: Delaunator<Float64Array>, a: number) => number;

const baseLegalize = (Delaunator.prototype as unknown as { _legalize?: Legalize })._legalize;

// one triangulation at a time runs on a thread (the constructor is synchronous), so the report
// state of the one running lives here: the subclass's own fields do not exist yet while the base
// constructor runs. A listener that throws (a cancel) leaves through the constructor, and
// `countedDelaunator` resets this state on the way out.
let nextReport = Number.POSITIVE_INFINITY;
let step = 1;
let expected = 1;
let meter: WorkMeter | null = null;

class CountingDelaunator extends Delaunator<Float64Array> {}

if (typeof baseLegalize === 'function') {
  Object.defineProperty(CountingDelaunator.prototype, '_legalize', {
    value: function countedLegalize(this: Delaunator<Float64Array>, a: number): number {
      if (a >= nextReport) {
        nextReport = a + step;
        meter?.units(a, expected);
      }
      return baseLegalize.call(this, a);
    },
  });
}

/** Reports per triangulation (fewer would leave a 10M-site run's bar still for seconds). */
const REPORTS = 256;

/**
 * `new Delaunator(xy)`, counting its insertion loop on `meter` (units: half-edges of the
 * triangles made, about six a site) when the meter listens. The same triangulation, bit for bit.
 */
export function countedDelaunator(xy: Float64Array, counter: WorkMeter): Delaunator<Float64Array> {
  if (!counter.active) return new Delaunator(xy);
  const n = xy.length >> 1;
  expected = 3 * Math.max(2 * n - 5, 1);
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
