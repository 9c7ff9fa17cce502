/*
 * The passes of the CPU Delaunay and Voronoi engines and their rough shares of a run's time, as
 * progress weights (see `WorkMeter`): milliseconds at 1M uniform sites on two threads,
 * 2026-11-28 (delaunator is half of a Voronoi diagram). A pass a run skips is jumped over.
 */

type Passes = readonly (readonly [string, number])[];

const TRIANGULATION: Passes = [
  ['order', 100],
  ['delaunator', 800],
  ['renumber', 60],
  ['certify', 90],
  ['repair', 20],
];

/** The passes of `voronoiCells` / `voronoiCellsParallel`. */
export const VORONOI_CELL_PASSES: Passes = [
  ...TRIANGULATION,
  ['circumcentres', 150],
  ['walks', 150],
  ['plan', 50],
  ['write', 300],
];

/** The passes of `voronoiEdges`. */
export const VORONOI_EDGE_PASSES: Passes = [...TRIANGULATION, ['circumcentres', 150], ['edges', 400]];

/** The passes of `delaunay`. */
export const DELAUNAY_PASSES: Passes = TRIANGULATION;
