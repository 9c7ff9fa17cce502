import Delaunator from 'delaunator';
import type { WorkMeter } from '../workers/work-meter.js';

/*
 * delaunator runs a whole triangulation inside its constructor: half the time of a CPU Voronoi
 * diagram, with no way to report from inside. Its insertion loop hashes each inserted site's
 * angle twice (`_hashKey`: once to find a visible hull edge, once to store the new hull edges),
 * so a subclass whose `_hashKey` counts calls and reports every so many counts measures the
 * loop without touching it. Only runs with a listener use the subclass; the others construct
 * delaunator itself. If a delaunator release renames the method, the subclass still
 * triangulates, only silently (a test checks that it counts).
 */

type HashKey = (this: Delaunator<Float64Array>, x: number, y: number) => number;

const baseHashKey = (Delaunator.prototype as unknown as { _hashKey?: HashKey })._hashKey;

// one triangulation at a time runs on a thread (the constructor is synchronous), so the
// counter of the one running lives here: the subclass's own fields do not exist yet while the
// base constructor runs
let calls = 0;
let nextReport = Number.POSITIVE_INFINITY;
let step = 1;
let expected = 1;
let meter: WorkMeter | null = null;

class CountingDelaunator extends Delaunator<Float64Array> {}

if (typeof baseHashKey === 'function') {
  Object.defineProperty(CountingDelaunator.prototype, '_hashKey', {
    value: function countedHashKey(this: Delaunator<Float64Array>, x: number, y: number): number {
      if (++calls >= nextReport) {
        nextReport += step;
        meter?.units(calls, expected);
      }
      return baseHashKey.call(this, x, y);
    },
  });
}

/** Reports per triangulation (fewer would leave a 10M-site run's bar still for seconds). */
const REPORTS = 256;

/**
 * `new Delaunator(xy)`, counting its insertion loop on `meter` (units: hull hashes, about two
 * per site) when the meter listens. The same triangulation, bit for bit.
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
