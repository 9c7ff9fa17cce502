import {
  certifyEdges,
  gatherSites,
  hilbertKeys,
  scatterTriangles,
  triangleLows,
} from '../delaunay/delaunay-kernels.js';
import { firstOccurrences, hashSites, scatterSites } from '../sites/first-occurrences.js';
import { circumcentreRange, planBoundary, planDegrees, shortEdges } from '../voronoi/cell-kernels.js';
import {
  countRepeats,
  dropRepeats,
  expandCountRepeats,
  firstBadRings,
} from '../voronoi/ring-pass-kernels.js';
import { writeSimpleRings } from '../voronoi/simple-rings.js';

/*
 * The worker threads' entry: every range kernel the pool runs, by name. A pooled worker is an
 * eval'd script built from these functions' own source text (see `worker-pool.ts`), which runs the
 * same from the TypeScript sources (tests), the built files and a single-file bundle (benches) —
 * a worker entry file would need its own path in each. So each kernel stays self-contained: no
 * reference to anything outside its body (its stage's file says so), and one definition serves
 * both this thread and the workers (the float incircle filter is `certifyEdges` alone).
 */

/**
 * Writes a zero into every 4 KiB page `lo .. hi` of `bytes` (already zero), so the operating system
 * maps them now: a fresh large array pays its page faults on first touch, which split over threads
 * is several times faster than paid by a single copy into it.
 */
export function touchPages(lo: number, hi: number, bytes: Uint8Array): void {
  for (let p = lo; p < hi; p++) bytes[p * 4096] = 0;
}

/** Every range kernel, by name: what a pooled worker can run. */
export const RANGE_KERNELS = {
  writeSimpleRings,
  hashSites,
  scatterSites,
  firstOccurrences,
  certifyEdges,
  circumcentreRange,
  shortEdges,
  touchPages,
  hilbertKeys,
  gatherSites,
  scatterTriangles,
  triangleLows,
  planDegrees,
  planBoundary,
  firstBadRings,
  countRepeats,
  dropRepeats,
  expandCountRepeats,
};

/** The name of a range kernel the pooled workers can run. */
export type KernelName = keyof typeof RANGE_KERNELS;

/**
 * The kernels as the source text of an object literal, by name: what the platform's `startThread`
 * evaluates in a worker (adr/0033: no worker file to ship, so sources, builds and bundles run alike).
 */
export const KERNEL_SOURCE = `{ ${Object.entries(RANGE_KERNELS)
  .map(([name, f]) => `${name}: ${f.toString()}`)
  .join(', ')} }`;
